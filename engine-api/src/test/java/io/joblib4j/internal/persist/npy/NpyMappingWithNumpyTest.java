package io.joblib4j.internal.persist.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.array.ReadOnlyArrayException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mapping numpy's files in each mode, and what is refused, against the real numpy (skipped loudly without it). */
class NpyMappingWithNumpyTest {
  @TempDir Path dir;

  @Test
  void readWriteMappingWritesReachTheFileAsNumpyReadsItAndCopyOnWriteOnesDoNot() {
    Path f = dir.resolve("a.npy");
    Numpy.run("import numpy as np, sys\nnp.save(sys.argv[1], np.arange(12, dtype='<f8').reshape(3, 4))\n", f);
    try (NDArray ro = Joblib.load(f, MmapMode.READ_ONLY)) {
      assertThat(ro.isMapped()).isTrue();
      assertThat(ro.mmapMode()).contains(MmapMode.READ_ONLY);
      assertThatThrownBy(() -> ro.setDouble(1, 0, 0)).isInstanceOf(ReadOnlyArrayException.class);
    }
    try (NDArray cow = Joblib.load(f, MmapMode.COPY_ON_WRITE)) {
      cow.setDouble(-1, 0, 0);
      assertThat(cow.getDouble(0, 0)).isEqualTo(-1);
    }
    try (NDArray rw = Joblib.load(f, MmapMode.READ_WRITE)) {
      rw.setDouble(99.5, 2, 3);
      assertThat(rw.mapping().orElseThrow().byteOffset()).as("the data, past numpy's header").isEqualTo(128);
    }
    Numpy.run("import numpy as np, sys\na = np.load(sys.argv[1])\nassert a[0, 0] == 0 and a[2, 3] == 99.5, a\n"
        + "m = np.load(sys.argv[1], mmap_mode='r')\nassert m[2, 3] == 99.5\n", f);
  }

  @Test
  void aFortranOrderedFileMapsWithNoCopyAndWritesLandAtTheirLogicalIndex() {
    Path f = dir.resolve("f.npy");
    Numpy.run("import numpy as np, sys\nnp.save(sys.argv[1], np.asfortranarray(np.zeros((3, 4), dtype='<i4')))\n", f);
    try (NDArray rw = Joblib.load(f, MmapMode.READ_WRITE)) {
      assertThat(rw.isMapped()).isTrue();
      rw.setInt(7, 1, 2);
      rw.row(2).setInt(9, 3);
    }
    Numpy.run("import numpy as np, sys\na = np.load(sys.argv[1])\nassert a.flags.f_contiguous\n"
        + "assert a[1, 2] == 7 and a[2, 3] == 9 and a.sum() == 16, a\n", f);
  }

  @Test
  void aBigEndianFileIsRefusedReadWriteAndLoadsByteSwappedOtherwise() {
    Path f = dir.resolve("be.npy");
    Numpy.run("import numpy as np, sys\nnp.save(sys.argv[1], np.arange(4, dtype='>i8'))\n", f);
    assertThatThrownBy(() -> Joblib.load(f, MmapMode.READ_WRITE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("big-endian").hasMessageContaining("cannot be mapped READ_WRITE")
        .hasMessageContaining("a.astype('<i8')");
    NDArray a = Joblib.load(f, MmapMode.COPY_ON_WRITE);
    assertThat(a.isMapped()).isFalse();
    assertThat(a.toLongArray()).containsExactly(0, 1, 2, 3);
  }

  @Test
  void anObjectArrayIsRefusedAsAPickleBeforeItsPayloadIsRead() throws Exception {
    Path f = dir.resolve("objects.npy");
    Numpy.run("import numpy as np, sys\nnp.save(sys.argv[1], np.array([1, 'two', None], dtype=object),"
        + " allow_pickle=True)\n", f);
    for (MmapMode mode : new MmapMode[] {null, MmapMode.READ_ONLY, MmapMode.READ_WRITE}) {
      assertThatThrownBy(() -> {
        if (mode == null) {
          Joblib.load(f);
        } else {
          Joblib.load(f, mode);
        }
      }).isExactlyInstanceOf(JoblibException.class)
          .hasMessageContaining(f.toString())
          .hasMessageContaining("holds Python objects")
          .hasMessageContaining("pickle")
          .hasMessageContaining("joblib4j never runs pickles");
    }
    // the payload is never read: a file cut right after the header is refused the same way
    byte[] whole = java.nio.file.Files.readAllBytes(f);
    Path cut = java.nio.file.Files.write(dir.resolve("cut.npy"), java.util.Arrays.copyOf(whole, 128));
    assertThatThrownBy(() -> Joblib.load(cut)).hasMessageContaining("never runs pickles");
  }

  @Test
  void dtypesNdArrayDoesNotHaveAreRefusedByName() {
    Numpy.run(String.join("\n",
        "import numpy as np, sys, os",
        "d = sys.argv[1]",
        "np.save(os.path.join(d, 'c16.npy'), np.zeros(2, dtype='<c16'))",
        "np.save(os.path.join(d, 'u2.npy'), np.zeros(2, dtype='<u2'))",
        "np.save(os.path.join(d, 'f2.npy'), np.zeros(2, dtype='<f2'))",
        "np.save(os.path.join(d, 'u8.npy'), np.zeros(2, dtype='>u8'))",
        "np.save(os.path.join(d, 'str.npy'), np.array(['ab', 'c']))",
        "np.save(os.path.join(d, 'dt.npy'), np.array(['2026-12-06'], dtype='datetime64[D]'))",
        "np.save(os.path.join(d, 'rec.npy'), np.zeros(2, dtype=[('x', '<f8'), ('y', '<i4')]))",
        ""), dir);
    assertRefused("c16.npy", "numpy dtype '<c16' (complex128) has no NDArray dtype");
    assertRefused("u2.npy", "numpy dtype '<u2' (uint16) has no NDArray dtype");
    assertRefused("f2.npy", "numpy dtype '<f2' (float16) has no NDArray dtype");
    assertRefused("u8.npy", "numpy dtype '>u8' (uint64) has no NDArray dtype");
    assertRefused("str.npy", "numpy dtype '<U2' (str, numpy's str_) has no NDArray dtype");
    assertRefused("dt.npy", "numpy dtype '<M8[D]' (datetime64) has no NDArray dtype");
    assertRefused("rec.npy", "a structured numpy dtype (fields ");
  }

  private void assertRefused(String file, String message) {
    assertThatThrownBy(() -> Joblib.load(dir.resolve(file))).isExactlyInstanceOf(JoblibException.class)
        .hasMessageContaining(message).hasMessageContaining("NDArray has float64, float32, int64, int32");
  }

  @Test
  void aNpyNamedCreateMappedFileIsOneNumpyMapsAndJoblibMapsAgain() {
    Path f = dir.resolve("out.npy");
    try (NDArray out = NDArray.createMapped(f, DType.FLOAT32, 2, 3)) {
      out.setFloat(1.25f, 1, 2);
    }
    Numpy.run("import numpy as np, sys\nm = np.lib.format.open_memmap(sys.argv[1], mode='r+')\n"
        + "assert m.dtype == np.float32 and m.shape == (2, 3) and m[1, 2] == 1.25, m\nm[0, 0] = 4\nm.flush()\n", f);
    try (NDArray again = Joblib.load(f, MmapMode.READ_ONLY)) {
      assertThat(again.getDouble(0, 0)).isEqualTo(4);
      assertThat(again.getDouble(1, 2)).isEqualTo(1.25);
    }
  }
}
