package io.joblib4j.array;

import static io.joblib4j.testing.JavaSerialized.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NDArrayTest {
  @TempDir Path dir;

  @Test
  void elementsAreCOrderedAndConvertBetweenTypes() {
    NDArray a = NDArray.of(new double[] {0, 1, 2, 3, 4, 5}, 2, 3);
    assertThat(a.getDouble(1, 2)).isEqualTo(5);
    assertThat(a.getLong(1, 0)).isEqualTo(3);
    NDArray u = NDArray.zeros(DType.UINT8, 2);
    u.setInt(200, 0);
    assertThat(u.getInt(0)).isEqualTo(200);
    assertThat(u.getByte(0)).isEqualTo((byte) 200);
    NDArray b = NDArray.zeros(DType.BOOL, 1);
    b.setDouble(3.0, 0);
    assertThat(b.getBoolean(0)).isTrue();
    assertThat(b.getInt(0)).isOne();
  }

  @Test
  void copyFromFillsAViewOfRowsOrColumnsAndRefusesAnotherShape() {
    NDArray out = NDArray.zeros(DType.INT32, 4, 3);
    out.slice(1, 3).copyFrom(NDArray.of(new int[] {1, 2, 3, 4, 5, 6}).reshape(2, 3));
    assertThat(out.toIntArray()).containsExactly(0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0);
    out.slice(1, 2, 3).copyFrom(NDArray.of(new int[] {7, 8, 9, 10}).reshape(4, 1)); // a strided view
    assertThat(out.toIntArray()).containsExactly(0, 0, 7, 1, 2, 8, 4, 5, 9, 0, 0, 10);
    assertThatThrownBy(() -> out.copyFrom(NDArray.zeros(DType.INT32, 3, 4)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dtype and shape must match");
    assertThatThrownBy(() -> out.copyFrom(NDArray.zeros(DType.FLOAT64, 4, 3)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void slicesAndRowsAreViewsSharingStorage() {
    NDArray a = NDArray.zeros(DType.INT64, 4, 3);
    NDArray rows = a.slice(1, 3);
    rows.setLong(9, 0, 1);
    assertThat(a.getLong(1, 1)).isEqualTo(9);
    NDArray col = a.slice(1, 2, 3);
    assertThat(col.shape()).containsExactly(4, 1);
    col.setLong(5, 3, 0);
    assertThat(a.getLong(3, 2)).isEqualTo(5);
    assertThat(col.isContiguous()).isFalse();
    assertThat(a.row(3).toLongArray()).containsExactly(0, 0, 5);
    assertThat(col.copy().toLongArray()).containsExactly(0, 0, 0, 5);
  }

  @Test
  void outOfRangeAccessAndBadShapesSayWhatWasWrong() {
    NDArray a = NDArray.zeros(DType.FLOAT64, 2, 2);
    assertThatThrownBy(() -> a.getDouble(2, 0)).isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("index 2 out of range for axis 0 of length 2");
    assertThatThrownBy(() -> a.getDouble(1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> a.reshape(3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NDArray.zeros(DType.INT8, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(a.reshape(-1).shape()).containsExactly(4);
  }

  @Test
  void equalityIsByContentAndHeapEqualsMapped() {
    Path file = dir.resolve("raw.f64");
    NDArray m = NDArray.createMapped(file, DType.FLOAT64, 3);
    m.setDouble(1.5, 1);
    NDArray h = NDArray.of(0, 1.5, 0);
    assertThat(m).isEqualTo(h).hasSameHashCodeAs(h);
    assertThat(Joblib.hash(m)).isEqualTo(Joblib.hash(h));
    assertThat(h).isNotEqualTo(NDArray.of(0, -0.0 + 1.5, 1)).isNotEqualTo(NDArray.of(new float[] {0, 1.5f, 0}));
    assertThat(NDArray.of(0.0)).isNotEqualTo(NDArray.of(-0.0));
    assertThat(h.toString()).startsWith("NDArray(float64, [3], heap)[0.0, 1.5, 0.0]");
  }

  @Test
  void createMappedIsNumpysWPlusAndAnotherMappingSeesTheWrites() throws Exception {
    Path file = dir.resolve("shared.f64");
    try (NDArray out = NDArray.createMapped(file, DType.FLOAT64, 10, 4)) {
      assertThat(Files.size(file)).isEqualTo(320);
      ArrayMapping ref = out.row(3).mapping().orElseThrow();
      assertThat(ref.byteOffset()).isEqualTo(3 * 4 * 8);
      // what a worker JVM does with the reference it was sent
      NDArray worker = NDArray.map(roundTrip(ref));
      worker.setDouble(42, 1);
      worker.force();
      assertThat(out.getDouble(3, 1)).isEqualTo(42);
      NDArray col = NDArray.map(out.slice(1, 2, 3).mapping().orElseThrow());
      col.setDouble(7, 9, 0);
      assertThat(out.getDouble(9, 2)).isEqualTo(7);
    }
    NDArray reread = NDArray.map(file, DType.FLOAT64, MmapMode.READ_ONLY, 0, 10, 4);
    assertThat(reread.getDouble(3, 1)).isEqualTo(42);
    assertThatThrownBy(() -> reread.setDouble(1, 0, 0)).isInstanceOf(ReadOnlyArrayException.class);
  }

  @Test
  void mappingARegionBeyondTheFileIsRefusedRatherThanGrowingIt() throws Exception {
    Path file = Files.write(dir.resolve("short.bin"), new byte[16]);
    assertThatThrownBy(() -> NDArray.map(file, DType.FLOAT64, MmapMode.READ_WRITE, 8, 4))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too few");
    assertThat(Files.size(file)).isEqualTo(16);
  }

  @Test
  void aClosedArrayFailsClearlyInsteadOfCrashing() {
    NDArray m = NDArray.createMapped(dir.resolve("c.bin"), DType.INT32, 2);
    NDArray view = m.slice(0, 1);
    m.close();
    assertThatThrownBy(() -> view.getInt(0)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void javaSerializationCopiesTheElements() throws Exception {
    NDArray a = NDArray.of(new double[] {1, 2, 3, 4}, 2, 2).slice(1, 0, 1);
    NDArray back = roundTrip(a);
    assertThat(back).isEqualTo(a.copy());
    assertThat(back.shape()).containsExactly(2, 1);
  }

  @Test
  void anArrayOverTwoGibibytesMapsInSeveralSegments() throws Exception {
    // sparse: only the touched pages are written
    Path file = dir.resolve("big.i8");
    long n = (5L << 29) + 3; // 2.5 GiB + 3
    try (NDArray big = NDArray.createMapped(file, DType.INT8, n)) {
      big.setByte((byte) 7, n - 1);
      big.setByte((byte) 5, (1L << 31) + 1);
      big.setByte((byte) 3, (1L << 30) - 1);
      big.force();
    }
    Path dumped = dir.resolve("big.jl4j");
    NDArray mapped = NDArray.map(file, DType.INT8, MmapMode.READ_ONLY, 0, n);
    assertThat(mapped.getByte(n - 1)).isEqualTo((byte) 7);
    assertThat(mapped.getByte((1L << 31) + 1)).isEqualTo((byte) 5);
    assertThat(mapped.slice((1L << 30) - 1, 1L << 30 + 1).getByte(0)).isEqualTo((byte) 3);
    assertThat(mapped.mapping().orElseThrow().shape()).containsExactly(n);
    assertThat(dumped).doesNotExist();
  }

}
