package io.joblib4j.internal.persist.npy;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** joblib4j's own round trips through numpy's formats, without numpy (these run wherever the build does). */
class NpyRoundTripTest {
  @TempDir Path dir;

  private static NDArray sample(DType d) {
    NDArray a = NDArray.zeros(d, 3, 5);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 5; j++) {
        a.setDouble(i * 7 - j * 3 + 0.5, i, j);
      }
    }
    return a;
  }

  @Test
  void everyDtypeComesBackEqualFromAFileAStreamAndAMapping() throws Exception {
    for (DType d : DType.values()) {
      NDArray a = sample(d);
      Path f = dir.resolve(d.numpyName() + ".npy");
      Joblib.dump(a, f);
      assertThat(Joblib.<NDArray>load(f)).as(d.toString()).isEqualTo(a);
      assertThat(Joblib.<NDArray>load(new ByteArrayInputStream(Files.readAllBytes(f)))).isEqualTo(a);
      try (NDArray m = Joblib.load(f, MmapMode.READ_ONLY)) {
        assertThat(m.isMapped()).isTrue();
        assertThat(m).isEqualTo(a);
      }
    }
  }

  @Test
  void aViewIsWrittenAsItsElementsInCOrder() {
    NDArray a = sample(DType.INT32);
    NDArray columns = a.slice(1, 1, 4);
    Joblib.dump(columns, dir.resolve("view.npy"));
    NDArray back = Joblib.load(dir.resolve("view.npy"));
    assertThat(back).isEqualTo(columns.copy());
    assertThat(back.isContiguous()).isTrue();
  }

  @Test
  void aFortranOrderedArrayKeepsItsOrderThroughADump() throws Exception {
    // a Fortran file of 2 x 3 int16, made by hand: column after column
    byte[] data = new byte[12];
    short[] columnMajor = {1, 4, 2, 5, 3, 6};
    for (int k = 0; k < 6; k++) {
      data[2 * k] = (byte) columnMajor[k];
    }
    Path f = Files.write(dir.resolve("f.npy"),
        NpyBadFilesTest.npy(1, NpyBadFilesTest.dict("'<i2'", "True", "(2, 3)"), data));
    NDArray a = Joblib.load(f);
    assertThat(a.toLongArray()).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(NpyWriter.isFortranOnly(a)).isTrue();
    Joblib.dump(a, dir.resolve("again.npy"));
    byte[] again = Files.readAllBytes(dir.resolve("again.npy"));
    assertThat(new String(again, 10, 60, java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("'fortran_order': True");
    assertThat(java.util.Arrays.copyOfRange(again, again.length - 12, again.length)).isEqualTo(data);
    assertThat(Joblib.<NDArray>load(dir.resolve("again.npy"))).isEqualTo(a);
  }

  @Test
  void aNpzComesBackWithItsKeysInOrderStoredOrDeflated() {
    Map<String, NDArray> m = new java.util.LinkedHashMap<>();
    for (DType d : DType.values()) {
      m.put("array_" + d.numpyName(), sample(d));
    }
    Joblib.dump(m, dir.resolve("stored.npz"));
    Joblib.dump(m, dir.resolve("deflated.npz"), io.joblib4j.Compress.of(6));
    for (String name : new String[] {"stored.npz", "deflated.npz"}) {
      Map<String, NDArray> back = Joblib.load(dir.resolve(name));
      assertThat(back).containsExactlyEntriesOf(m);
    }
  }

  @Test
  void createMappedWithANpyNameWritesNumpysHeaderAndMapsTheDataPastIt() throws Exception {
    Path f = dir.resolve("out.NPY");
    try (NDArray out = NDArray.createMapped(f, DType.INT64, 4, 2)) {
      out.setLong(42, 3, 1);
      assertThat(out.mapping().orElseThrow().byteOffset()).isEqualTo(128);
      assertThat(ArrayAccess.get().storage(out).fileOffset()).isEqualTo(128);
    }
    assertThat(Files.size(f)).isEqualTo(128 + 64);
    NDArray back = Joblib.load(f);
    assertThat(back.shape()).containsExactly(4, 2);
    assertThat(back.getLong(3, 1)).isEqualTo(42);
    // any other name keeps the raw file numpy's np.memmap reads
    try (NDArray raw = NDArray.createMapped(dir.resolve("out.f64"), DType.FLOAT64, 4)) {
      assertThat(raw.mapping().orElseThrow().byteOffset()).isZero();
    }
    assertThat(Files.size(dir.resolve("out.f64"))).isEqualTo(32);
  }
}
