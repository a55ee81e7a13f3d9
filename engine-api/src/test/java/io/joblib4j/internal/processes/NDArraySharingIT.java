package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.MmapMode;
import io.joblib4j.Parallel;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.array.ReadOnlyArrayException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** joblib's memmap cases (acceptance items 29-31) for NDArrays, and seed 004's shared output array. */
@Timeout(120)
class NDArraySharingIT {
  @TempDir Path dir;

  /** Seed 004's {@code func3}: fills row i of both planes of {@code ab}. */
  static int fillRow(int i, double[] a, double[] b, NDArray ab) {
    NDArray sums = ab.row(0).row(i);
    NDArray products = ab.row(1).row(i);
    for (int j = 0; j < b.length; j++) {
      sums.setDouble(a[i] + b[j], j);
      products.setDouble(a[i] * b[j], j);
    }
    return i;
  }

  @Test
  void workersFillDisjointRowsOfAReadWriteMappedArrayAndTheParentSeesEveryWrite() {
    int n = 200;
    int m = 50;
    double[] a = IntStream.range(0, n).asDoubleStream().toArray();
    double[] b = IntStream.range(0, m).asDoubleStream().toArray();
    try (NDArray ab = NDArray.createMapped(dir.resolve("ab.f64"), DType.FLOAT64, 2, n, m);
         Parallel p = Workers.processes(2)) {
      List<Long> pids = p.run(IntStream.range(0, n).mapToObj(i -> delayed((x, y, z, out) -> {
        fillRow(x, y, z, out);
        return Workers.pid();
      }, i, a, b, ab)));
      assertThat(pids).doesNotContain(Workers.pid());
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
          assertThat(ab.getDouble(0, i, j)).isEqualTo(a[i] + b[j]);
          assertThat(ab.getDouble(1, i, j)).isEqualTo(a[i] * b[j]);
        }
      }
    }
  }

  @Test
  void aMappedArrayIsSharedWithoutACopyOrANewFileWhateverItsSize() {
    String prefix = TempFolders.ownPrefix() + "call-";
    String base = TempFolders.baseFor(null).toString();
    try (NDArray small = NDArray.createMapped(dir.resolve("small.f64"), DType.FLOAT64, 4);
         Parallel p = Workers.processes(1)) {
      small.setDouble(1.5, 2);
      List<String> r = p.run(List.of(delayed(x -> x.isMapped() + " " + x.mapping().orElseThrow().file() + " "
          + x.getDouble(2) + " " + SharedArraysIT.callFolders(Path.of(base), prefix).size(), small)));
      assertThat(r).containsExactly("true " + dir.resolve("small.f64").toAbsolutePath() + " 1.5 0");
    }
  }

  @Test
  void aLargeHeapArrayArrivesAsAReadOnlyMappingOfATemporaryCopy() {
    NDArray heap = NDArray.zeros(DType.FLOAT64, 500, 500); // 2 MB > 1 MiB
    heap.setDouble(3.0, 499, 499);
    try (Parallel p = Workers.processes(1)) {
      String r = p.<String>run(List.of(delayed(x -> x.isMapped() + " " + x.mmapMode().orElseThrow() + " "
          + TempFolders.inCallFolder(x.mapping().orElseThrow().file()) + " " + x.getDouble(499, 499), heap))).get(0);
      assertThat(r).isEqualTo("true READ_ONLY true 3.0");
      assertThatThrownBy(() -> p.run(List.of(delayed(x -> {
        x.setDouble(1.0, 0, 0);
        return 0;
      }, heap)))).isInstanceOf(ReadOnlyArrayException.class);
    }
    try (Parallel p = Workers.processes(1)) {
      assertThat(p.run(List.of(delayed(x -> x.isMapped(), NDArray.zeros(DType.FLOAT64, 10))))).containsExactly(false);
    }
  }

  @Test
  void aCopyOnWriteMappingKeepsTheWorkersWritesToThemselves() {
    try (NDArray file = NDArray.createMapped(dir.resolve("c.f64"), DType.FLOAT64, 8)) {
      file.force();
      try (NDArray cow = NDArray.map(dir.resolve("c.f64"), DType.FLOAT64, MmapMode.COPY_ON_WRITE, 0, 8);
           Parallel p = Workers.processes(1)) {
        assertThat(p.run(List.of(delayed(x -> {
          x.setDouble(9.0, 0);
          return x.getDouble(0);
        }, cow)))).containsExactly(9.0);
        assertThat(file.getDouble(0)).isZero();
      }
    }
  }

  @Test
  void resultsAreOrdinaryArraysUnlessTheyAreTheUsersMappedArray() {
    try (NDArray shared = NDArray.createMapped(dir.resolve("r.f64"), DType.FLOAT64, 3);
         Parallel p = Workers.processes(1)) {
      NDArray heapResult = p.<NDArray>run(List.of(delayed(() -> NDArray.of(1, 2, 3)))).get(0);
      assertThat(heapResult.isMapped()).isFalse();
      assertThat(heapResult).isEqualTo(NDArray.of(1, 2, 3));

      NDArray copyOfTemp = p.<NDArray>run(List.of(delayed(x -> x, NDArray.zeros(DType.FLOAT64, 300_000)))).get(0);
      assertThat(copyOfTemp.isMapped()).as("a temporary copy comes back as an ordinary array").isFalse();

      NDArray same = p.<NDArray>run(List.of(delayed(x -> {
        x.setDouble(4.0, 1);
        return x;
      }, shared))).get(0);
      assertThat(same.isMapped()).isTrue();
      assertThat(same.mapping().orElseThrow().file()).isEqualTo(shared.mapping().orElseThrow().file());
      assertThat(shared.getDouble(1)).isEqualTo(4.0);
    }
  }

  @Test
  void anArrayInsideAnotherArgumentIsSharedToo() {
    try (NDArray out = NDArray.createMapped(dir.resolve("nested.f64"), DType.FLOAT64, 2);
         Parallel p = Workers.processes(1)) {
      p.run(List.of(delayed(holder -> {
        holder.get(0).setDouble(7.0, 1);
        return 0;
      }, List.of(out))));
      assertThat(out.getDouble(1)).isEqualTo(7.0);
    }
  }
}
