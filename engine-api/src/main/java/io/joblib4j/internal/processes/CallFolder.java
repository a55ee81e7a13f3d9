package io.joblib4j.internal.processes;

import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One call's temporary folder and the large arrays written to it. The folder is created only when
 * the first array over {@code maxNbytes} is sent (joblib creates it lazily too); each array is
 * written once per call however many tasks receive it; the folder is deleted when the call ends,
 * normally or not.
 */
final class CallFolder implements AutoCloseable {
  private static final Set<CallFolder> LIVE = ConcurrentHashMap.newKeySet();

  private final String callId;
  private final Path base;
  private final Map<Object, SharedArrayRef> shared = new IdentityHashMap<>();
  private Path dir;
  private boolean closed;

  CallFolder(String callId, Path requestedBase) {
    this.callId = callId;
    this.base = requestedBase;
  }

  /** The reference to send instead of {@code array}, writing it the first time. */
  synchronized SharedArrayRef share(Object array) throws IOException {
    SharedArrayRef ref = shared.get(array);
    if (ref != null) {
      return ref;
    }
    if (closed) {
      throw new IOException("the call " + callId + " has ended; its shared arrays are gone");
    }
    if (dir == null) {
      dir = TempFolders.create(TempFolders.baseFor(base), shortId());
      LIVE.add(this);
    }
    Path file = dir.resolve("a" + shared.size() + ".bin");
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      SharedArrayFiles.write(array, ch);
    } catch (IOException e) {
      throw new IOException("cannot write a shared array of " + SharedArrayFiles.byteSize(array) + " bytes to "
          + file + " (" + e.getMessage() + "); free space there, set tempFolder(...) elsewhere, or raise"
          + " maxNbytes", e);
    }
    ref = new SharedArrayRef(callId, file.toAbsolutePath().toString(), array.getClass().getComponentType(),
        Array.getLength(array));
    shared.put(array, ref);
    return ref;
  }

  /** Whether any array was shared, i.e. workers may hold copies to release. */
  synchronized boolean used() {
    return !shared.isEmpty();
  }

  /** The folder, if it was created. */
  synchronized Path folder() {
    return dir;
  }

  @Override
  public synchronized void close() {
    closed = true;
    shared.clear();
    TempFolders.deleteTree(dir);
    LIVE.remove(this);
  }

  /** Deletes the folders of calls still open: the JVM is exiting. */
  static void closeAll() {
    for (CallFolder f : LIVE.toArray(new CallFolder[0])) {
      f.close();
    }
  }

  private String shortId() {
    String id = callId.startsWith("joblib4j-") ? callId.substring("joblib4j-".length()) : callId;
    return "call-" + id.replaceAll("[^A-Za-z0-9-]", "_");
  }
}
