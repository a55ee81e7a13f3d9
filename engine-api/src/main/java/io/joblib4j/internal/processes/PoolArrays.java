package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import java.io.IOException;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Array;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The large primitive arrays a worker pool's calls shared, kept in files across calls (of one
 * {@code Parallel}, and of every {@code Parallel} on the pool), so that a second call with the same
 * array writes nothing and its workers copy nothing. joblib keeps its memmaps the same way, keyed
 * by the array's identity alone, so that an array changed between two calls is not seen; here an
 * array is reused only if it is the same array (identity) <em>and</em> its content digest ({@link
 * ArrayDigests}) still equals the file's: a changed array is written again, and its workers read the
 * new file.
 *
 * <p>A file is dropped (deleted, and the workers told to drop their copies) when its array has been
 * garbage collected here (noticed within half a second), when it was replaced by a changed version and no call still uses it, when
 * the kept files exceed {@link #MAX_KEPT_BYTES} or {@link #MAX_KEPT_FILES} (least recently used
 * first), and when the pool
 * ends. The folder is named for this JVM ({@link TempFolders}): one left by a JVM killed with -9 is
 * swept by the next JVM that starts a call.
 */
final class PoolArrays {
  private static final LazyLogger LOG = LazyLogger.of(PoolArrays.class);
  /** Beyond this many bytes of kept arrays, the least recently used are dropped. */
  static final long MAX_KEPT_BYTES = 4L << 30;
  /** Beyond this many kept files, the least recently used are dropped. */
  static final int MAX_KEPT_FILES = 64;
  private static final AtomicLong POOLS = new AtomicLong();

  /** One array's file and what is known of it. */
  private static final class Entry extends WeakReference<Object> {
    final int identity;
    final Path file;
    final long[] digest;
    final long bytes;
    final Class<?> elementType;
    final int length;
    final SharedArrayRef.Kept kept;
    final Set<String> calls = new HashSet<>();
    boolean replaced;

    Entry(Object array, ReferenceQueue<Object> queue, Path file, long[] digest, SharedArrayRef.Kept kept) {
      super(array, queue);
      this.identity = System.identityHashCode(array);
      this.file = file;
      this.digest = digest;
      this.bytes = SharedArrayFiles.byteSize(array);
      this.elementType = array.getClass().getComponentType();
      this.length = Array.getLength(array);
      this.kept = kept;
    }
  }

  private final String name = "pool-" + POOLS.incrementAndGet();
  private final Consumer<String> release;
  private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
  /** By identity hash; each list holds the entries of arrays with that hash, current ones only. */
  private final Map<Integer, List<Entry>> byIdentity = new HashMap<>();
  /** Every entry whose file exists, in order of last use. */
  private final LinkedHashMap<Entry, Boolean> files = new LinkedHashMap<>(16, 0.75f, true);
  private final AtomicLong versions = new AtomicLong();
  private Path dir;
  private long keptBytes;
  private boolean closed;

  /** {@code release} tells the pool's workers to drop their copies of a kept file (a RELEASE scope). */
  PoolArrays(Consumer<String> release) {
    this.release = release;
  }

  /**
   * The reference for {@code array} in call {@code callId}: the kept file if the array is the
   * one it was written from and still holds the same content, else a new file written now.
   */
  SharedArrayRef share(Object array, String callId) throws IOException {
    List<String> dropped = new ArrayList<>();
    try {
      long[] digest = ArrayDigests.of(array); // outside the lock: tens of milliseconds for large arrays
      synchronized (this) {
        if (closed) {
          throw new IOException("the worker pool has ended; its shared arrays are gone");
        }
        expunge(dropped);
        Entry current = find(array);
        if (current != null && Arrays.equals(current.digest, digest)) {
          current.calls.add(callId);
          files.get(current); // most recently used
          return ref(current, callId);
        }
        if (current != null) { // the same array, changed since: a new version; the old goes when unused
          current.replaced = true;
          remove(current);
          if (current.calls.isEmpty()) {
            drop(current, dropped);
          }
        }
        Entry e = write(array, digest);
        e.calls.add(callId);
        byIdentity.computeIfAbsent(e.identity, k -> new ArrayList<>(1)).add(e);
        files.put(e, Boolean.TRUE);
        keptBytes += e.bytes;
        trim(e, dropped);
        return ref(e, callId);
      }
    } finally {
      dropped.forEach(release);
    }
  }

  /** The call ended: the files it used may go if they were replaced. */
  void callEnded(String callId) {
    List<String> dropped = new ArrayList<>();
    synchronized (this) {
      for (Entry e : new ArrayList<>(files.keySet())) {
        if (e.calls.remove(callId) && e.calls.isEmpty() && (e.replaced || e.get() == null)) {
          drop(e, dropped);
        }
      }
      expunge(dropped);
    }
    dropped.forEach(release);
  }

  /** Drops the files of arrays the garbage collector took; from the pool's timer, every half second. */
  void expungeCollected() {
    List<String> dropped = new ArrayList<>();
    synchronized (this) {
      expunge(dropped);
    }
    dropped.forEach(release);
  }

  /** The pool ended: every file goes (its workers are ending too). */
  synchronized void close() {
    closed = true;
    byIdentity.clear();
    files.clear();
    keptBytes = 0;
    TempFolders.deleteTree(dir);
  }

  /** The folder, once created; for tests. */
  synchronized Path folder() {
    return dir;
  }

  /** How many files are kept; for tests. */
  synchronized int fileCount() {
    return files.size();
  }

  private SharedArrayRef ref(Entry e, String callId) {
    return new SharedArrayRef(callId, e.file.toString(), e.elementType, e.length, e.kept);
  }

  private Entry find(Object array) {
    List<Entry> same = byIdentity.get(System.identityHashCode(array));
    if (same != null) {
      for (Entry e : same) {
        if (e.get() == array) {
          return e;
        }
      }
    }
    return null;
  }

  private Entry write(Object array, long[] digest) throws IOException {
    if (dir == null) {
      dir = TempFolders.create(TempFolders.baseFor(null), name);
    }
    Path file = dir.resolve("a" + versions.incrementAndGet() + ".bin");
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      SharedArrayFiles.write(array, ch);
    } catch (IOException e) {
      Files.deleteIfExists(file);
      throw new IOException("cannot write a shared array of " + SharedArrayFiles.byteSize(array) + " bytes to "
          + file + " (" + e.getMessage() + "); free space there, set tempFolder(...) elsewhere, or raise"
          + " maxNbytes", e);
    }
    SharedArrayRef.Kept kept = new SharedArrayRef.Kept(WorkerArrays.KEPT_PREFIX + file);
    return new Entry(array, collected, file, digest, kept);
  }

  /** Drops the least recently used unused files while the kept bytes exceed the cap (never {@code keep}). */
  private void trim(Entry keep, List<String> dropped) {
    for (Iterator<Entry> it = new ArrayList<>(files.keySet()).iterator();
        (keptBytes > MAX_KEPT_BYTES || files.size() > MAX_KEPT_FILES) && it.hasNext(); ) {
      Entry e = it.next();
      if (e != keep && e.calls.isEmpty()) {
        remove(e);
        drop(e, dropped);
      }
    }
  }

  /** Files of arrays collected here: nobody can pass them again. */
  private void expunge(List<String> dropped) {
    for (Object r; (r = collected.poll()) != null; ) {
      Entry e = (Entry) r;
      remove(e);
      if (e.calls.isEmpty()) {
        drop(e, dropped);
      }
    }
  }

  private void remove(Entry e) {
    List<Entry> same = byIdentity.get(e.identity);
    if (same != null) {
      same.remove(e);
      if (same.isEmpty()) {
        byIdentity.remove(e.identity);
      }
    }
  }

  private void drop(Entry e, List<String> dropped) {
    if (files.remove(e) == null) {
      return;
    }
    keptBytes -= e.bytes;
    try {
      Files.deleteIfExists(e.file);
    } catch (IOException x) {
      LOG.get().debug("cannot delete {}", e.file, x);
    }
    dropped.add(e.kept.scope());
    if (files.isEmpty()) { // no empty folder stays behind between uses
      TempFolders.deleteTree(dir);
      dir = null;
    }
  }
}
