package io.joblib4j.internal.processes;

import io.joblib4j.array.ArrayMapping;
import io.joblib4j.array.NDArray;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.worker.ArgumentSharer;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The processes backend's {@link ArgumentSharer}: one call's temporary folder and the arrays
 * shared with its workers. Primitive arrays and heap NDArrays over {@code maxNbytes} (unless it is
 * negative), and every memory-mapped NDArray, travel as references to files, anywhere in a task's
 * arguments. The folder is created only when the first array over {@code maxNbytes} is sent
 * (joblib creates it lazily too); each array is written once per call however many tasks receive
 * it; memory-mapped NDArrays are not written at all, their own file is shared; the folder is
 * deleted when the call ends, normally or not.
 */
final class CallFolder implements ArgumentSharer {
  private static final Set<CallFolder> LIVE = ConcurrentHashMap.newKeySet();

  private final String callId;
  private final Path base;
  private final long maxNbytes;
  private final PoolArrays kept;
  private final Replacer replacer = this::replace;
  private final Map<Object, Object> shared = new IdentityHashMap<>();
  private Path dir;
  private boolean written;
  private boolean closed;

  CallFolder(String callId, Path requestedBase, long maxNbytes) {
    this(callId, requestedBase, maxNbytes, null);
  }

  /**
   * With {@code kept}, primitive arrays go to the pool's files kept across calls ({@link
   * PoolArrays}) unless the call asks for its own temp folder.
   */
  CallFolder(String callId, Path requestedBase, long maxNbytes, PoolArrays kept) {
    this.callId = callId;
    this.base = requestedBase;
    this.maxNbytes = maxNbytes;
    this.kept = requestedBase == null ? kept : null;
  }

  @Override
  public Replacer prepare(Batch batch) {
    return replacer;
  }

  /** A shared array's reference in place of {@code obj}, or {@code obj} to copy it. */
  private Object replace(Object obj) throws IOException {
    Class<?> c = obj.getClass();
    if (c.isArray()) {
      return maxNbytes >= 0 && c.getComponentType().isPrimitive() && SharedArrayFiles.byteSize(obj) > maxNbytes
          ? sharePrimitive(obj) : obj;
    }
    NDArray a = NDArrays.unwrap(obj);
    if (a != null && (a.isMapped() || maxNbytes >= 0 && a.nbytes() > maxNbytes)) {
      return share(a);
    }
    return obj;
  }

  /** The reference to send instead of primitive array {@code array}, writing it the first time. */
  synchronized SharedArrayRef sharePrimitive(Object array) throws IOException {
    SharedArrayRef ref = (SharedArrayRef) shared.get(array);
    if (ref != null) {
      return ref;
    }
    if (kept != null) {
      if (closed) {
        throw new IOException("the call " + callId + " has ended; its shared arrays are gone");
      }
      ref = kept.share(array, callId);
      shared.put(array, ref);
      return ref;
    }
    Path file = newFile("a");
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
    written = true;
    return ref;
  }

  /**
   * The reference to send instead of {@code array}: its own file region if it is mapped (whatever
   * its size: a READ_WRITE array must be the same array in the workers), else a read-only copy in
   * this folder, written the first time.
   */
  synchronized SharedNDArrayRef share(NDArray array) throws IOException {
    SharedNDArrayRef ref = (SharedNDArrayRef) shared.get(array);
    if (ref != null) {
      return ref;
    }
    Optional<ArrayMapping> own = array.mapping();
    if (own.isPresent()) {
      ref = new SharedNDArrayRef(callId, own.get());
    } else {
      Path file = newFile("n");
      try {
        ref = new SharedNDArrayRef(callId, NDArrays.dump(array, file));
      } catch (IOException e) {
        throw new IOException("cannot write a shared array of " + array.nbytes() + " bytes to " + file + " ("
            + e.getMessage() + "); free space there, set tempFolder(...) elsewhere, or raise maxNbytes", e);
      }
      written = true;
    }
    shared.put(array, ref);
    return ref;
  }

  private Path newFile(String kind) throws IOException {
    if (closed) {
      throw new IOException("the call " + callId + " has ended; its shared arrays are gone");
    }
    if (dir == null) {
      dir = TempFolders.create(TempFolders.baseFor(base), shortId());
      LIVE.add(this);
    }
    return dir.resolve(kind + shared.size() + ".bin");
  }

  /** Whether any array was shared, i.e. workers may hold copies or mappings to release. */
  synchronized boolean used() {
    return !shared.isEmpty();
  }

  /** Whether a file was written to this call's folder. */
  synchronized boolean wroteFiles() {
    return written;
  }

  /** The folder, if it was created. */
  synchronized Path folder() {
    return dir;
  }

  @Override
  public synchronized void close() {
    if (kept != null && !closed) {
      kept.callEnded(callId);
    }
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
