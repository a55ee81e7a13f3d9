package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** joblib's auto-memmapping, items 29-32 of the acceptance list, for primitive arrays. */
@Timeout(120)
class SharedArraysIT {
  /** The test JVM's prefix, captured by value: in a worker, TempFolders.ownPrefix() is the worker's. */
  private final String prefix = TempFolders.ownPrefix() + "call-";

  @Test
  void arraysOverMaxNbytesReachWorkersThroughAFileWrittenOnceForThePool() {
    double[] big = new double[300_000]; // 2.4 MB > the 1 MiB default
    Arrays.setAll(big, i -> i);
    String base = TempFolders.baseFor(null).toString();
    String poolPrefix = TempFolders.ownPrefix() + "pool-";
    long before = fileCount(callFolders(Path.of(base), poolPrefix));
    try (ProcessesBackend b = Workers.backend(Map.of("reuse", false));
         Parallel p = Parallel.builder().backend(b).nJobs(2).build()) {
      List<String> r = p.run(IntStream.range(0, 8).mapToObj(i -> delayed(a -> {
        Thread.sleep(20);
        return Workers.pid() + " " + System.identityHashCode(a) + " " + Arrays.stream(a).sum() + " "
            + fileCount(callFolders(Path.of(base), poolPrefix));
      }, big)));
      Map<String, Set<String>> copiesByWorker = new HashMap<>();
      for (String line : r) {
        String[] f = line.split(" ");
        assertThat(Double.parseDouble(f[2])).isEqualTo(299_999.0 * 300_000 / 2);
        assertThat(Long.parseLong(f[3]) - before).as("one file for the array, however many tasks").isEqualTo(1);
        copiesByWorker.computeIfAbsent(f[0], k -> new HashSet<>()).add(f[1]);
      }
      assertThat(copiesByWorker.values()).as("one copy per worker, shared by its tasks").allMatch(s -> s.size() == 1);
      assertThat(callFolders(Path.of(base), prefix)).as("no folder of the call's own").isEmpty();
    }
    assertThat(fileCount(callFolders(Path.of(base), poolPrefix))).as("removed when the pool ends").isEqualTo(before);
  }

  static long fileCount(List<Path> folders) {
    long files = 0;
    for (Path f : folders) {
      try (Stream<Path> s = Files.list(f)) {
        files += s.count();
      } catch (java.io.IOException e) {
        // removed meanwhile
      }
    }
    return files;
  }

  @Test
  void smallArraysAndArraysWithSharingDisabledAreCopiedWithoutAFolder() {
    String base = TempFolders.baseFor(null).toString();
    String prefix = this.prefix;
    Delayed<Integer> small = delayed(a -> callFolders(Path.of(base), prefix).size(), new double[100]);
    Delayed<Integer> big = delayed(a -> callFolders(Path.of(base), prefix).size(), new double[300_000]);
    try (Parallel p = Workers.processes(1)) {
      assertThat(p.run(List.of(small))).containsExactly(0);
    }
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).maxNbytes("none").build()) {
      assertThat(p.run(List.of(big))).containsExactly(0);
    }
  }

  @Test
  void everyPrimitiveArrayTypeArrivesIntact() {
    int n = 1000;
    int[] ints = IntStream.range(0, n).map(i -> i * 7 - 3000).toArray();
    long[] longs = IntStream.range(0, n).mapToLong(i -> (long) i << 40).toArray();
    float[] floats = new float[n];
    short[] shorts = new short[n];
    char[] chars = new char[n];
    byte[] bytes = new byte[n];
    boolean[] bools = new boolean[n];
    for (int i = 0; i < n; i++) {
      floats[i] = i / 3f;
      shorts[i] = (short) (i - 500);
      chars[i] = (char) ('a' + i % 26);
      bytes[i] = (byte) i;
      bools[i] = i % 3 == 0;
    }
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).maxNbytes(16).build()) {
      List<Object> back = p.run(Stream.of(ints, longs, floats, shorts, chars, bytes, bools)
          .map(a -> delayed((Object x) -> x, a)));
      assertThat((int[]) back.get(0)).isEqualTo(ints);
      assertThat((long[]) back.get(1)).isEqualTo(longs);
      assertThat((float[]) back.get(2)).isEqualTo(floats);
      assertThat((short[]) back.get(3)).isEqualTo(shorts);
      assertThat((char[]) back.get(4)).isEqualTo(chars);
      assertThat((byte[]) back.get(5)).isEqualTo(bytes);
      assertThat((boolean[]) back.get(6)).isEqualTo(bools);
    }
  }

  @Test
  void resultsComeBackAsOrdinaryArrays() {
    try (Parallel p = Workers.processes(1)) {
      double[] r = p.<double[]>run(List.of(delayed(n -> {
        double[] a = new double[n];
        Arrays.setAll(a, i -> i * 0.5);
        return a;
      }, 500_000))).get(0);
      assertThat(r).hasSize(500_000);
      assertThat(r[499_999]).isEqualTo(249_999.5);
    }
  }

  @Test
  void theTempFolderOptionIsWhereTheFilesGo(@TempDir Path dir) throws Exception {
    String where = dir.toString();
    String prefix = this.prefix;
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).tempFolder(dir).build()) {
      assertThat(p.run(List.of(delayed(a -> callFolders(Path.of(where), prefix).size(), new long[200_000])))).containsExactly(1);
    }
    assertThat(callFolders(dir, prefix)).isEmpty();
  }

  @Test
  void theFolderIsRemovedAfterAFailedCallAndAfterATimeout() {
    String base = TempFolders.baseFor(null).toString();
    String prefix = this.prefix;
    // a temp folder of its own, so that arrays go to a folder of the call's, not the pool's kept files
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).tempFolder(Path.of(base))
        .timeout(Duration.ofMillis(800)).build()) {
      assertThatThrownBy(() -> p.run(List.of(delayed(a -> {
        throw new IllegalStateException("failed with " + callFolders(Path.of(base), prefix).size() + " folder");
      }, new double[300_000])))).hasMessage("failed with 1 folder");
      assertThat(callFolders(Path.of(base), prefix)).isEmpty();
      assertThatThrownBy(() -> p.run(List.of(delayed(a -> {
        Thread.sleep(60_000);
        return 0;
      }, new double[300_000])))).isInstanceOf(TimeoutException.class);
      assertThat(callFolders(Path.of(base), prefix)).isEmpty();
    }
  }

  @Test
  void devShmIsUsedOnlyWhenItHasTwoGigabytesFree(@TempDir Path dir) throws Exception {
    assertThat(TempFolders.shmIfLargeEnough(dir.resolve("missing"))).isEmpty();
    Path shm = TempFolders.SHM;
    assumeTrue(Files.isDirectory(shm) && Files.getFileStore(shm).getUsableSpace() >= TempFolders.SHM_MIN_FREE);
    assertThat(TempFolders.shmIfLargeEnough(shm)).contains(shm);
    assertThat(TempFolders.baseFor(dir)).isEqualTo(dir);
  }

  /** The call folders in {@code base} named with {@code prefix}. */
  static List<Path> callFolders(Path base, String prefix) {
    try (Stream<Path> s = Files.list(base)) {
      return s.filter(f -> f.getFileName().toString().startsWith(prefix)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
