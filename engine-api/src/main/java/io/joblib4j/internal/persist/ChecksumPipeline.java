package io.joblib4j.internal.persist;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;

/**
 * Computes the CRC32C of a large payload on a helper thread while the caller moves the bytes: the
 * caller fills a staging buffer from a ring, hands it over with {@link #submit}, and only reuses a
 * buffer once its checksum step is done. CRC32C is sequential, so one helper thread processes the
 * buffers in order. This takes the checksum off the critical path of a large dump or load, which
 * would otherwise add a third to a raw FileChannel copy.
 */
final class ChecksumPipeline implements AutoCloseable {
  /** Payloads at least this large go through a pipeline; smaller ones are checked inline. */
  static final long MIN_BYTES = 8 << 20;
  private static final int RING = 4;

  private final ExecutorService helper = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "joblib4j-checksum");
    t.setDaemon(true);
    return t;
  });
  private final CRC32C crc = new CRC32C();
  private final ByteBuffer[] ring = new ByteBuffer[RING];
  @SuppressWarnings("unchecked")
  private final Future<?>[] pending = new Future<?>[RING];
  private int next;

  ChecksumPipeline(java.util.function.IntFunction<ByteBuffer> allocate, int size) {
    for (int i = 0; i < RING; i++) {
      ring[i] = allocate.apply(size).order(ByteOrder.LITTLE_ENDIAN);
    }
  }

  /** The next staging buffer, cleared, once the checksum of its previous contents is done. */
  ByteBuffer take() throws IOException {
    await(pending[next]);
    pending[next] = null;
    ByteBuffer b = ring[next];
    b.clear();
    return b;
  }

  /** Queues the checksum of {@code b}'s remaining bytes (the buffer just taken, now filled). */
  void submit(ByteBuffer b) {
    ByteBuffer view = b.duplicate();
    pending[next] = helper.submit(() -> crc.update(view));
    next = (next + 1) % RING;
  }

  /** The checksum of everything submitted. */
  int value() throws IOException {
    for (Future<?> f : pending) {
      await(f);
    }
    return (int) crc.getValue();
  }

  private static void await(Future<?> f) throws IOException {
    if (f == null) {
      return;
    }
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while checksumming");
    } catch (ExecutionException e) {
      throw new IOException("checksum failed", e.getCause());
    }
  }

  @Override
  public void close() {
    helper.shutdownNow();
  }
}
