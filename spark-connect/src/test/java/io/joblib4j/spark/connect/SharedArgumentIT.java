package io.joblib4j.spark.connect;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A large task argument crosses to the Connect server once, however many batches use it, and is
 * read once per executor JVM. 400 MB, as the issue asks (the {@code joblib4j.it.sharedMib}
 * property makes it smaller on a small machine).
 */
class SharedArgumentIT {
  static final int MIB = Integer.getInteger("joblib4j.it.sharedMib", 400);
  static final int BATCHES = 8;
  /** Deserializations of a {@link Payload} in the JVM that counts them: the server's, for tasks. */
  static final AtomicInteger READS = new AtomicInteger();

  /** The large argument: counts its deserializations where they happen. */
  public static final class Payload implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final byte[] data;

    Payload(int mib) {
      data = new byte[mib << 20];
      for (int i = 0; i < data.length; i += 4096) {
        data[i] = (byte) (i >>> 12);
      }
    }

    long checksum() {
      long sum = 0;
      for (int i = 0; i < data.length; i += 4096) {
        sum += data[i];
      }
      return sum;
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      READS.incrementAndGet();
    }
  }

  static long use(Payload payload, int i) {
    return payload.checksum() * 1000 + i;
  }

  static int readsHere(int ignored) {
    return READS.get();
  }

  @Test
  void aLargeArgumentUsedByManyBatchesCrossesToTheServerOnceAndIsReadOncePerExecutorJvm() throws IOException {
    Payload big = new Payload(MIB);
    long checksum = big.checksum();
    List<Delayed<Long>> tasks = IntStream.range(0, BATCHES).mapToObj(i -> delayed(SharedArgumentIT::use, big, i)).toList();
    long written = bytesWritten();
    try (Parallel p = Parallel.builder().backend(new SparkConnectBackend(ConnectServer.session(),
        ConnectServer.options())).nJobs(2).batchSize(1).build()) {
      List<Long> out = p.run(tasks);
      written = bytesWritten() - written;
      assertThat(out).containsExactlyElementsOf(IntStream.range(0, BATCHES).mapToObj(i -> checksum * 1000 + i).toList());
      assertThat(p.map(SharedArgumentIT::readsHere, List.of(0, 1)))
          .as("deserialized on the server once: local[2] is one executor JVM").containsOnly(1);
    }
    assumeTrue(written >= 0, "this OS does not count a process's writes");
    assertThat(written).as("bytes this client wrote (the jar once to disk, once to the server), for "
        + BATCHES + " batches of " + MIB + " MiB").isLessThan(3L * big.data.length);
  }

  /** What this process wrote to files and sockets so far (Linux), or -1. */
  private static long bytesWritten() throws IOException {
    Path io = Path.of("/proc/self/io");
    if (!Files.isReadable(io)) {
      return -1;
    }
    for (String line : Files.readAllLines(io)) {
      if (line.startsWith("wchar:")) {
        return Long.parseLong(line.substring("wchar:".length()).trim());
      }
    }
    return -1;
  }
}
