package io.joblib4j.internal.processes;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The worker's copies of the large arrays of the calls it serves, read from their files once per
 * call and shared by every task of the call that runs here, until the parent says the call ended.
 */
final class WorkerArrays {
  private final Map<String, Map<String, Object>> byCall = new HashMap<>();

  synchronized Object get(SharedArrayRef ref) throws IOException {
    Map<String, Object> call = byCall.computeIfAbsent(ref.callId(), k -> new HashMap<>());
    Object a = call.get(ref.file());
    if (a == null) {
      a = SharedArrayFiles.read(Path.of(ref.file()), ref.elementType(), ref.length());
      call.put(ref.file(), a);
    }
    return a;
  }

  synchronized void release(String callId) {
    byCall.remove(callId);
  }
}
