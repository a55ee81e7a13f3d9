package io.joblib4j.internal.array;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Reads the next blocks of a file that is being checked block after block into the page cache, on
 * a background thread. Without it a lazily checked scan of a cold file is slower than an unchecked
 * one: the unchecked scan's page faults trigger the kernel's asynchronous read-ahead, so the disk
 * reads the next pages while the scan computes, but the check reads each block ahead of the scan as
 * fast as the disk delivers it, and the scan then computes with the disk idle. Reading ahead here
 * puts the disk back to work beside the scan.
 *
 * <p>It reads through a channel of its own, never through the mapping: a read of a region whose
 * file was cut short would crash the JVM. It only asks the mapping which of its pages are in
 * memory (and holds it meanwhile, so it cannot be unmapped). What it reads only warms the cache; the check itself still reads the bytes through the mapping. A file
 * replaced meanwhile costs a wasted read, nothing else. At most a few reads wait: the rest are
 * dropped, as read-ahead is only a hint.
 */
final class ReadAhead {
  private static final int BUFFER = 1 << 20;
  private static final ThreadLocal<ByteBuffer> SCRATCH = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(BUFFER));
  private static final ThreadPoolExecutor READER = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
      new ArrayBlockingQueue<>(4), r -> {
        Thread t = new Thread(r, "joblib4j-map-read-ahead");
        t.setDaemon(true);
        return t;
      }, new ThreadPoolExecutor.DiscardPolicy());

  static {
    READER.allowCoreThreadTimeOut(true);
  }

  private ReadAhead() {}

  /**
   * Asks for bytes {@code [offset, offset + length)} of {@code file}, mapped as {@code mapped}, to
   * be read into the page cache soon, unless they are there already: reading cached bytes would
   * only copy them, CPU time that a warm scan on a busy machine pays for in wall time.
   */
  static void request(Path file, long offset, long length, ByteBuffer mapped) {
    READER.execute(() -> {
      if (!(mapped instanceof MappedByteBuffer m) || !m.isLoaded()) { // isLoaded: mincore, no copy
        read(file, offset, length);
      }
    });
  }

  private static void read(Path file, long offset, long length) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = SCRATCH.get();
      for (long at = offset, end = offset + length; at < end; ) {
        b.clear().limit((int) Math.min(b.capacity(), end - at));
        int n = ch.read(b, at);
        if (n <= 0) {
          return;
        }
        at += n;
      }
    } catch (IOException | RuntimeException e) {
      // a hint only: the check reads the bytes itself and reports what is wrong with them
    }
  }
}
