package io.joblib4j.internal.processes;

import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A worker JVM's copies of the large primitive arrays, and its mappings of the NDArrays, of the
 * calls it serves: made once per call and shared by every task of the call that runs here, until
 * the parent says the call ended (the garbage collector then unmaps what is no longer used).
 */
final class WorkerArrays {
  private static final Map<String, Map<Object, Object>> BY_CALL = new HashMap<>();

  private WorkerArrays() {}

  static synchronized Object get(SharedArrayRef ref) throws IOException {
    Map<Object, Object> call = BY_CALL.computeIfAbsent(ref.callId(), k -> new HashMap<>());
    Object a = call.get(ref.file());
    if (a == null) {
      a = SharedArrayFiles.read(Path.of(ref.file()), ref.elementType(), ref.length());
      call.put(ref.file(), a);
    }
    return a;
  }

  /** The worker's mapping of a shared NDArray: mapped once per call, shared by the call's tasks here. */
  static synchronized NDArray get(SharedNDArrayRef ref) {
    Map<Object, Object> call = BY_CALL.computeIfAbsent(ref.callId(), k -> new HashMap<>());
    return (NDArray) call.computeIfAbsent(ref.mapping(), m -> NDArray.map(ref.mapping()));
  }

  static synchronized void release(String callId) {
    BY_CALL.remove(callId);
  }

  /**
   * What a worker sends back in place of a result: the user's memory-mapped NDArray as its file
   * region, mapped again by the parent (joblib sends a memmap back the same way). Heap arrays, and
   * the temporary copies of the call's folder, come back as ordinary arrays.
   */
  static Object resultReplacement(Object obj) {
    NDArray a = NDArrays.unwrap(obj);
    if (a != null && a.isMapped()) {
      io.joblib4j.array.ArrayMapping m = a.mapping().orElseThrow();
      if (!TempFolders.inCallFolder(m.file())) {
        return new SharedNDArrayRef(null, m);
      }
    }
    return obj;
  }
}
