package io.joblib4j.internal.parallel;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.fn.Fn1;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap estimate auto batching caps batches by: rough, but never blind to where the bytes are. */
class HeapFootprintTest {
  private final HeapFootprint footprint = new HeapFootprint();

  record Sample(String name, double[] values) {}

  static long sum(double[] a, long i) {
    return a.length + i;
  }

  @Test
  void primitiveArraysAndStringsCountByTheirLength() {
    assertThat(footprint.of(new double[1000])).isBetween(8000L, 8100L);
    assertThat(footprint.of(new byte[10])).isBetween(10L, 64L);
    assertThat(footprint.of("x".repeat(1000))).isBetween(1000L, 2100L);
    assertThat(footprint.of(42L)).isPositive().isLessThan(64L);
  }

  @Test
  void recordsAndCollectionsCountWhatTheyHold() {
    assertThat(footprint.of(new Sample("a", new double[100_000]))).isGreaterThan(800_000L);
    List<double[]> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(new double[1000]);
    }
    assertThat(footprint.of(rows)).as("100 rows of 8 KB").isGreaterThan(800_000L);
    assertThat(footprint.of(Map.of("k", new int[50_000]))).isGreaterThan(200_000L);
    assertThat(footprint.of(new Object[] {new long[10_000], new long[10_000]})).isGreaterThan(160_000L);
  }

  @Test
  void aTaskCountsItsArgumentsAndWhatItsLambdaCaptures() {
    double[] big = new double[1 << 20];
    assertThat(footprint.ofTask(delayed(HeapFootprintTest::sum, new double[1 << 20], 1L)))
        .isGreaterThan(8L << 20);
    Fn1<Long, Long> capturing = i -> big.length + i;
    assertThat(new HeapFootprint().ofTask(delayed(capturing, 1L))).isGreaterThan(8L << 20);
    assertThat(footprint.ofTask(delayed(HeapFootprintTest::sum, new double[0], 1L))).isLessThan(512L);
  }

  @Test
  void anArgumentEveryTaskSharesCountsOnce() {
    double[] shared = new double[1 << 20];
    assertThat(footprint.ofTask(delayed(HeapFootprintTest::sum, shared, 1L))).isGreaterThan(8L << 20);
    assertThat(footprint.ofTask(delayed(HeapFootprintTest::sum, shared, 2L))).isLessThan(512L);
    assertThat(footprint.ofTask(delayed(HeapFootprintTest::sum, new double[1 << 20], 3L)))
        .as("a new array of the same size is not shared").isGreaterThan(8L << 20);
  }

  @Test
  void aMappedArrayCostsTheHeapNothing(@TempDir Path dir) {
    NDArray mapped = NDArray.createMapped(dir.resolve("a.bin"), DType.FLOAT64, 1000, 1000);
    try {
      assertThat(footprint.of(mapped)).isLessThan(1024L);
      assertThat(footprint.of(NDArray.zeros(DType.FLOAT64, 1000, 1000))).isGreaterThan(8_000_000L);
    } finally {
      mapped.close();
    }
  }

  /** A user's collection: its methods might do anything, so it is sized by its fields. */
  static final class Rows extends AbstractList<Double> {
    private final double[] values = new double[100_000];

    @Override
    public Double get(int index) {
      throw new IllegalStateException("a user's collection must not be called to size it");
    }

    @Override
    public int size() {
      throw new IllegalStateException("a user's collection must not be called to size it");
    }
  }

  @Test
  void aUsersCollectionIsSizedByItsFieldsWithoutCallingIt() {
    assertThat(footprint.of(new Rows())).isGreaterThan(800_000L);
  }

  @Test
  void cyclesEnd() {
    List<Object> cycle = new ArrayList<>();
    cycle.add(cycle);
    assertThat(footprint.of(cycle)).isPositive();
  }
}
