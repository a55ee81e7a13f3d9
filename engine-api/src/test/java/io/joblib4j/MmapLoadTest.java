package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.array.ArrayMapping;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.array.ReadOnlyArrayException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** joblib-features §7.1 item 48-49: load with mmap modes. */
class MmapLoadTest {
  @TempDir Path dir;

  private Path dumped(NDArray a) {
    Path file = dir.resolve("a.jl4j");
    Joblib.dump(Map.of("a", a, "tag", "x"), file);
    return file;
  }

  @Test
  void readOnlyMapsTheArrayInPlaceAlignedAndRefusesWrites() {
    NDArray a = NDArray.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Path file = dumped(a);
    Map<String, Object> back = Joblib.load(file, MmapMode.READ_ONLY);
    NDArray m = (NDArray) back.get("a");
    assertThat(m).isEqualTo(a);
    assertThat(m.isMapped()).isTrue();
    ArrayMapping where = m.mapping().orElseThrow();
    assertThat(where.path()).isEqualTo(file.toAbsolutePath());
    assertThat(where.byteOffset() % 64).isZero();
    assertThat(where.mode()).isEqualTo(MmapMode.READ_ONLY);
    assertThatThrownBy(() -> m.setDouble(9, 0, 0)).isInstanceOf(ReadOnlyArrayException.class)
        .hasMessageContaining("READ_ONLY").hasMessageContaining("COPY_ON_WRITE");
  }

  @Test
  void readWriteWritesReachTheFile() {
    Path file = dumped(NDArray.zeros(DType.INT32, 4));
    Map<String, Object> rw = Joblib.load(file, MmapMode.fromJoblib("r+"));
    NDArray m = (NDArray) rw.get("a");
    m.setInt(7, 2);
    m.force();
    Map<String, Object> again = Joblib.load(file);
    assertThat(((NDArray) again.get("a")).toIntArray()).containsExactly(0, 0, 7, 0);
  }

  @Test
  void copyOnWriteWritesStayPrivate() {
    Path file = dumped(NDArray.zeros(DType.FLOAT32, 3));
    NDArray c = (NDArray) ((Map<?, ?>) Joblib.load(file, MmapMode.fromJoblib("c"))).get("a");
    c.setFloat(5f, 1);
    assertThat(c.getFloat(1)).isEqualTo(5f);
    NDArray fresh = (NDArray) ((Map<?, ?>) Joblib.load(file)).get("a");
    assertThat(fresh.getFloat(1)).isZero();
  }

  @Test
  void wPlusMeansReadWriteOnLoadAndNeverZeroesData() {
    Path file = dumped(NDArray.of(1.0, 2.0));
    NDArray m = (NDArray) ((Map<?, ?>) Joblib.load(file, MmapMode.fromJoblib("w+"))).get("a");
    assertThat(m.toDoubleArray()).containsExactly(1.0, 2.0);
    assertThat(m.mmapMode()).contains(MmapMode.READ_WRITE);
  }

  @Test
  void eachArrayOfAValueGetsItsOwnMappingAndPlainJavaArraysAreRead() {
    Path file = dir.resolve("many.jl4j");
    Joblib.dump(List.of(NDArray.of(1.0, 2.0), NDArray.of(3, 4, 5), new double[] {6}), file);
    List<Object> back = Joblib.load(file, MmapMode.READ_ONLY);
    NDArray x = (NDArray) back.get(0);
    NDArray y = (NDArray) back.get(1);
    assertThat(x.isMapped()).isTrue();
    assertThat(y.isMapped()).isTrue();
    assertThat(x.mapping().orElseThrow().byteOffset()).isNotEqualTo(y.mapping().orElseThrow().byteOffset());
    assertThat(y.toIntArray()).containsExactly(3, 4, 5);
    assertThat((double[]) back.get(2)).containsExactly(6);
  }

  @Test
  void aCompressedFileLoadsInMemoryInsteadOfMapping() {
    Path file = dir.resolve("a.jl4j.gz");
    Joblib.dump(NDArray.of(1.0, 2.0), file);
    NDArray m = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(m.isMapped()).isFalse();
    assertThat(m.toDoubleArray()).containsExactly(1.0, 2.0);
  }

  @Test
  void badMmapStringsAreRejectedWithTheChoices() {
    assertThatThrownBy(() -> MmapMode.fromJoblib("rw")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"r+\"");
    assertThat(MmapMode.fromJoblib("READ_ONLY")).isEqualTo(MmapMode.READ_ONLY);
  }
}
