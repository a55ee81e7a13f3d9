package io.joblib4j.internal.processes;

import io.joblib4j.Delayed;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.code.ArrayWrites;
import io.joblib4j.spi.Batch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A worker JVM's copies of the large primitive arrays, and its mappings of the NDArrays, of the
 * calls it serves: made once per call and shared by every task of the call that runs here, until
 * the parent says the call ended (the garbage collector then unmaps what is no longer used).
 */
final class WorkerArrays {
  private static final Map<String, Map<Object, Object>> BY_CALL = new HashMap<>();
  /** The RELEASE scope of a file the parent's pool keeps across calls starts so. */
  static final String KEPT_PREFIX = "kept:";
  /** Copies of the files the pool keeps, by scope, kept across calls until the parent releases them. */
  private static final Map<String, Copy> KEPT = new HashMap<>();

  /**
   * Refreshes the copies of kept files between calls, one at a time, off the path of the next call;
   * in a holder so that a worker loads it only when it keeps a file (not while it starts).
   */
  private static final class Refresher {
    static final ExecutorService THREAD = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "joblib4j-worker-kept-array-refresh");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * A copy of a kept file, the file's mappings it was read from (kept: their pages are mapped
   * already, so a refresh is one memory copy), the last call that used it, whether a task may have
   * written it since it was equal to the file, and its refresh once that call ended.
   */
  private static final class Copy {
    final Object array;
    final List<ByteBuffer> maps;
    String lastCall;
    /** A task that may store into arrays of this kind was handed the copy since it was last equal to the file. */
    boolean mayDiffer;
    /**
     * A task whose code was not proven was handed the copy: it may have kept it where code that runs
     * later (a thread of its own) can write it, so the copy is refreshed after every call from now on
     * (as every copy was before proofs), whatever the later calls' tasks.
     */
    boolean unproven;
    /** The copy made equal to the file again after {@link #lastCall} ended (no task holds it since), or null. */
    CompletableFuture<Void> refreshed;

    Copy(Object array, List<ByteBuffer> maps, String lastCall) {
      this.array = array;
      this.maps = maps;
      this.lastCall = lastCall;
    }
  }

  private WorkerArrays() {}

  static synchronized Object get(SharedArrayRef ref) throws IOException {
    if (ref.kept() != null) {
      return kept(ref);
    }
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

  /**
   * The copy of a kept file, read once and used again by later calls. The tasks of a call may
   * write into the copy they share (as with a call's own copy), so before another call uses it the
   * copy is overwritten with the file's content again, exact whatever a task wrote, unless every
   * task that held it was proven unable to store into arrays of its kind ({@link #beforeTasksRun}).
   * The refresh starts when the call that used the copy last ends ({@link #release}), in the
   * background, so that the next call usually finds it done.
   */
  private static Object kept(SharedArrayRef ref) throws IOException {
    Copy c = KEPT.get(ref.kept().scope());
    if (c != null && !c.lastCall.equals(ref.callId())) {
      if (c.refreshed != null) {
        c.refreshed.join();
      } else if (c.mayDiffer || c.unproven) {
        SharedArrayFiles.copyInto(c.array, c.maps);
      }
      c.mayDiffer = false;
    }
    if (c == null) {
      List<ByteBuffer> maps = SharedArrayFiles.map(Path.of(ref.file()), ref.elementType(), ref.length());
      c = new Copy(SharedArrayFiles.copyOf(maps, ref.elementType(), ref.length()), maps, ref.callId());
      KEPT.put(ref.kept().scope(), c);
    }
    c.lastCall = ref.callId();
    c.refreshed = null; // this call's tasks hold it now
    return c.array;
  }

  /**
   * Before a batch's tasks run: the kept copies their call was handed here (those whose last call it
   * is: a worker reads and runs one batch at a time) are marked as possibly written if a task's code
   * may store into arrays of their kind, or was not proven at all, or the task runs with values
   * other than plain ones ({@link ArrayWrites#ofTask}). Called for every batch, after it was read
   * and before any of its tasks runs.
   */
  static void beforeTasksRun(Batch batch) {
    List<Copy> handed = new ArrayList<>(); // a loop, not a stream: this runs in every worker's first batch
    synchronized (WorkerArrays.class) {
      for (Copy c : KEPT.values()) {
        if (c.lastCall.equals(batch.callId())) {
          handed.add(c);
        }
      }
    }
    if (handed.isEmpty()) {
      return;
    }
    int writes = 0;
    for (Delayed<?> task : batch.tasks()) {
      writes |= ArrayWrites.ofTask(task.function(), task.arguments()); // outside the lock: a first proof reads class files
    }
    synchronized (WorkerArrays.class) {
      for (Copy c : handed) {
        c.unproven |= writes == ArrayWrites.UNPROVEN;
        c.mayDiffer |= ArrayWrites.mayWrite(writes, c.array.getClass().getComponentType());
      }
    }
  }

  /** Drops every call's arrays and every kept copy: the parent that named them parked this worker. */
  static synchronized void releaseAll() {
    BY_CALL.clear();
    KEPT.clear();
  }

  static synchronized void release(String scope) {
    if (scope.startsWith(KEPT_PREFIX)) {
      KEPT.remove(scope);
      return;
    }
    BY_CALL.remove(scope);
    for (Copy c : KEPT.values()) {
      if (c.lastCall.equals(scope) && c.refreshed == null && (c.mayDiffer || c.unproven)) {
        c.mayDiffer = false; // equal to the file again once the refresh is done, which the next call waits for
        c.refreshed = CompletableFuture.runAsync(() -> SharedArrayFiles.copyInto(c.array, c.maps), Refresher.THREAD);
      }
    }
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
