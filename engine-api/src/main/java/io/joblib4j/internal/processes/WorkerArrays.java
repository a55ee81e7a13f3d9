package io.joblib4j.internal.processes;

import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The worker's copies of the large primitive arrays, and its mappings of the NDArrays, of the calls
 * it serves: made once per call and shared by every task of the call that runs here, until the
 * parent says the call ended (the garbage collector then unmaps what is no longer used).
 */
final class WorkerArrays {
  private final Map<String, Map<Object, Object>> byCall = new HashMap<>();

  synchronized Object get(SharedArrayRef ref) throws IOException {
    Map<Object, Object> call = byCall.computeIfAbsent(ref.callId(), k -> new HashMap<>());
    Object a = call.get(ref.file());
    if (a == null) {
      a = SharedArrayFiles.read(Path.of(ref.file()), ref.elementType(), ref.length());
      call.put(ref.file(), a);
    }
    return a;
  }

  /** The worker's mapping of a shared NDArray: mapped once per call, shared by the call's tasks here. */
  synchronized NDArray get(SharedNDArrayRef ref) {
    Map<Object, Object> call = byCall.computeIfAbsent(ref.callId(), k -> new HashMap<>());
    return (NDArray) call.computeIfAbsent(ref.mapping(), m -> NDArray.map(ref.mapping()));
  }

  synchronized void release(String callId) {
    byCall.remove(callId);
  }
}
