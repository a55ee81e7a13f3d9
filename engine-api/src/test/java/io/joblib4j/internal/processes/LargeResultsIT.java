package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.Processes;
import io.joblib4j.spi.Backend;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Results too large for one frame come back through a file the worker spills and the parent
 * reads and deletes (issue 19 item 7); a parent whose own heap cannot hold results says so.
 */
class LargeResultsIT {
  /**
   * A result whose serialized form is {@code bytes} long while the object itself is small: it
   * writes a known pattern and reads it back checking every byte, so that the transport, not the
   * heap, is what is tested.
   */
  static final class Stream2G implements Serializable {
    private static final long serialVersionUID = 1L;
    final long bytes;
    transient long received = -1;

    Stream2G(long bytes) {
      this.bytes = bytes;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      byte[] chunk = new byte[1 << 20];
      for (long done = 0; done < bytes; done += chunk.length) {
        int n = (int) Math.min(chunk.length, bytes - done);
        stamp(chunk, done);
        out.write(chunk, 0, n);
      }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      byte[] chunk = new byte[1 << 20];
      byte[] expected = new byte[chunk.length];
      long done = 0;
      while (done < bytes) {
        int n = (int) Math.min(chunk.length, bytes - done);
        in.readFully(chunk, 0, n);
        stamp(expected, done);
        if (!java.util.Arrays.equals(chunk, 0, n, expected, 0, n)) {
          throw new IOException("the mebibyte at " + done + " came back wrong");
        }
        done += n;
      }
      received = done;
    }

    /** Each mebibyte's position written at its start, middle and end: misplaced or lost bytes show. */
    private static void stamp(byte[] chunk, long position) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(chunk);
      b.putLong(0, position).putLong(chunk.length / 2, ~position).putLong(chunk.length - 8, position + 1);
    }
  }

  @Test
  @Timeout(180)
  void aResultOverTwoGigabytesComesBackAndItsFileIsDeleted() {
    long size = (1L << 31) + (64L << 20); // past what one frame (a byte[]) can carry
    try (Backend b = Processes.builder().reuse(false).build()) {
      Parallel p = Parallel.builder().backend(b).nJobs(1).build();
      List<Stream2G> out = p.run(List.of(delayed(() -> new Stream2G(size)), delayed(() -> new Stream2G(10))));
      assertThat(out.get(0).received).isEqualTo(size);
      assertThat(out.get(1).received).isEqualTo(10);
    }
    try (Stream<Path> left = Files.list(WorkerPools.resultsDir())) {
      assertThat(left).as("spilled results are deleted once read").isEmpty();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  @Timeout(120)
  void theParentsOwnOutOfMemoryIsDiagnosedAsTheParents() throws Exception {
    Process parent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx96m", "-cp", System.getProperty("java.class.path"), SmallParentMain.class.getName())
        .redirectErrorStream(true).start();
    String out = new String(parent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(parent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).as(out).contains("FAILED io.joblib4j.JoblibException")
        .contains("this JVM (the parent, which runs Parallel) ran out of memory").contains("-Xmx96m")
        .contains("Raise this JVM's -Xmx").doesNotContain("Runtime.halt").doesNotContain("joblib4j bug");
    assertThat(out).as("the parent is usable after").contains("AFTER 3");
  }

  /** A parent at -Xmx96m receiving a 200 MB result from a worker with room for it. */
  public static final class SmallParentMain {
    private SmallParentMain() {}

    public static void main(String[] args) {
      try (Backend b = Processes.builder().heap("512m").build()) {
        Parallel p = Parallel.builder().backend(b).nJobs(1).build();
        try {
          p.run(List.of(delayed(() -> new byte[200 << 20])));
          System.out.println("NO ERROR");
        } catch (RuntimeException e) {
          System.out.println("FAILED " + e);
        }
        System.out.println("AFTER " + p.run(List.of(delayed(() -> 1 + 2))).get(0));
      }
    }
  }
}
