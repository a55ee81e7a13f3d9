package io.joblib4j.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spi.worker.Hello;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A byte count in a frame costs only the bytes that really follow it: before a peer has proven its
 * token, anyone who reaches the parent's port can send a HELLO, and its token's length used to
 * allocate as much as it said (up to 2 GiB), found by {@link WorkerFramesFuzzTest}. A count larger
 * than the HELLO's own bytes is refused before anything is read.
 */
class FrameLengthsTest {
  private static long allocatedWhile(ThrowingRunnable r) throws Exception {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(id);
    r.run();
    return threads.getThreadAllocatedBytes(id) - before;
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void aHelloWhoseTokenClaimsTwoGigabytesCostsOnlyTheBytesSent() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    Frames.writeHeader(out, 100, Frames.HELLO);
    out.writeInt(Hello.VERSION);
    out.writeInt(Frames.MAX_FRAME); // the token's length
    out.write(new byte[100]);
    long allocated = allocatedWhile(() -> assertThatThrownBy(() -> WorkerLink.accept(
        new WorkerFramesFuzzTest.BytesSocket(bytes.toByteArray()), Duration.ofSeconds(1)))
        .isInstanceOf(StreamCorruptedException.class).hasMessageContaining("byte count"));
    assertThat(allocated).isLessThan(16L << 20);
  }

  @Test
  void bytesOfEverySizeStillRoundTrip() throws IOException {
    for (int n : new int[] {0, 1, 1000, (1 << 20) - 1, 1 << 20, (3 << 20) + 17}) {
      byte[] b = new byte[n];
      for (int i = 0; i < n; i++) {
        b[i] = (byte) (i * 31);
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      Frames.writeBytes(new DataOutputStream(bytes), b);
      assertThat(Frames.readBytes(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())))).isEqualTo(b);
    }
  }
}
