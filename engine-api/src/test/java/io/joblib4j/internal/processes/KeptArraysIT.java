package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A large array shared again by a later call (issue 21 item 2): the pool keeps its file, reused
 * only if the array still holds the same content; a changed array is always seen, unlike joblib's
 * memmaps (which keep the first contents for the life of the Parallel).
 */
@Timeout(120)
class KeptArraysIT {
  private static final int N = 1 << 20; // 8 MB, over the 1 MiB default of maxNbytes

  @Test
  void aSecondCallWithTheSameArrayWritesNothingAndAChangedArrayIsSeen() throws Exception {
    double[] a = new double[N];
    ProcessesBackend backend = Workers.backend(Map.of("reuse", false));
    Path folder;
    try (backend; Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      assertThat(sums(p, a)).containsOnly(0.0);
      PoolArrays kept = backend.poolForTests().keptArrays();
      folder = kept.folder();
      List<Object> first = fileKeys(folder);
      assertThat(first).hasSize(1);

      assertThat(sums(p, a)).containsOnly(0.0);
      assertThat(fileKeys(folder)).as("the same array again: no file written").isEqualTo(first);

      Arrays.fill(a, 1.0); // joblib's workers would still see zeros here
      assertThat(sums(p, a)).as("a changed array is seen").containsOnly((double) N / 4);
      assertThat(fileKeys(folder)).as("written again, the old version dropped").hasSize(1).isNotEqualTo(first);

      double[] other = a.clone(); // equal content, another array: its own file
      assertThat(sums(p, other)).containsOnly((double) N / 4);
      assertThat(kept.fileCount()).isEqualTo(2);
    }
    assertThat(folder).as("deleted when the pool ends").doesNotExist();
  }

  @Test
  void aWorkersCopyChangedByATaskIsNotServedToTheNextCall() {
    double[] a = new double[N];
    try (ProcessesBackend b = Workers.backend(Map.of("reuse", false));
         Parallel p = Parallel.builder().backend(b).nJobs(1).build()) {
      assertThat(p.<Double>run(List.of(delayed(x -> {
        x[0] = 99; // writes into the worker's copy
        return x[0];
      }, a)))).containsExactly(99.0);
      assertThat(p.<Double>run(List.of(delayed(x -> x[0], a)))).as("the parent's content, not the worker's")
          .containsExactly(0.0);
    }
  }

  @Test
  void aCopyWrittenWhereTheProofCannotFollowIsNotServedToTheNextCall() {
    double[] a = new double[N];
    Filler filler = new Filler();
    try (ProcessesBackend b = Workers.backend(Map.of("reuse", false));
         Parallel p = Parallel.builder().backend(b).nJobs(1).build()) {
      assertThat(p.<Double>run(List.of(delayed(x -> {
        Arrays.fill(x, 5); // inside the JDK
        return x[0];
      }, a)))).containsExactly(5.0);
      assertThat(p.<Double>run(List.of(delayed(x -> x[0] + x[N - 1], a)))).containsExactly(0.0);
      assertThat(p.<Double>run(List.of(delayed(x -> filler.fill(x), a)))).as("through a method a subclass could override")
          .containsExactly(3.0);
      assertThat(p.<Double>run(List.of(delayed(x -> x[0] + x[N - 1], a)))).containsExactly(0.0);
    }
  }

  @Test
  void anArgumentWhoseDeserializationWritesTheArrayIsSeenFreshEachCall() {
    Scaled s = new Scaled(new double[N]);
    try (ProcessesBackend b = Workers.backend(Map.of("reuse", false));
         Parallel p = Parallel.builder().backend(b).nJobs(1).build()) {
      for (int call = 0; call < 3; call++) {
        assertThat(p.<Double>run(List.of(delayed(x -> x.data[0], s)))).as("call %d", call).containsExactly(1.0);
      }
    }
  }

  /** Its {@code readObject} adds 1 to the first element of its array, in the worker, where no proof reads it. */
  static final class Scaled implements java.io.Serializable {
    final double[] data;

    Scaled(double[] data) {
      this.data = data;
    }

    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
      in.defaultReadObject();
      data[0] += 1;
    }
  }

  /** Not final: which {@code fill} runs is decided at run time. */
  static class Filler implements java.io.Serializable {
    double fill(double[] x) {
      Arrays.fill(x, 3);
      return x[0];
    }
  }

  /** Four tasks each summing a quarter of {@code a}. */
  private static List<Double> sums(Parallel p, double[] a) {
    return p.run(IntStream.range(0, 4).mapToObj(q -> delayed(x -> {
      double s = 0;
      for (int i = q * x.length / 4; i < (q + 1) * x.length / 4; i++) {
        s += x[i];
      }
      return s;
    }, a)));
  }

  /** The identities (inode) of the files in {@code folder}: a file written again is a new one. */
  private static List<Object> fileKeys(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.sorted().map(f -> {
        try {
          BasicFileAttributes at = Files.readAttributes(f, BasicFileAttributes.class);
          return (Object) (f.getFileName() + "@" + at.fileKey() + "@" + at.lastModifiedTime().toMillis());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList();
    }
  }
}
