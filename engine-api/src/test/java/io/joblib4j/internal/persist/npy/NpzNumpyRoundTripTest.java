package io.joblib4j.internal.persist.npy;

import static io.joblib4j.internal.persist.npy.NpyNumpyRoundTripTest.PYTHON_VALUES;
import static io.joblib4j.internal.persist.npy.NpyNumpyRoundTripTest.assertHoldsTheTestValues;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Compress;
import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code .npz} archives with the real numpy, stored and deflated, both ways (skipped loudly without numpy). */
class NpzNumpyRoundTripTest {
  @TempDir Path dir;

  private static final String SAVE_ALL = PYTHON_VALUES + String.join("\n",
      "import sys",
      "arrays = {}",
      "for descr in ('<f8', '>f8', '<f4', '<i8', '>i4', '<i2', '|i1', '|u1', '|b1'):",
      "    arrays[descr.replace('<', 'l').replace('>', 'b').replace('|', 'n')] = values(descr)",
      "arrays['fortran'] = np.asfortranarray(values('<f8'))",
      "");

  private static DType dtypeOf(String key) {
    return key.equals("fortran") ? DType.FLOAT64 : DType.fromNumpyName(key.substring(1));
  }

  @Test
  void numpysSavezAndSavezCompressedLoadAsAMapOfEveryArray() {
    Numpy.run(SAVE_ALL + String.join("\n",
        "np.savez(sys.argv[1], **arrays)",
        "np.savez_compressed(sys.argv[2], **arrays)",
        ""), dir.resolve("stored.npz"), dir.resolve("deflated.npz"));
    for (String name : new String[] {"stored.npz", "deflated.npz"}) {
      Map<String, NDArray> m = Joblib.load(dir.resolve(name));
      assertThat(m.keySet()).containsExactly("lf8", "bf8", "lf4", "li8", "bi4", "li2", "ni1", "nu1", "nb1", "fortran");
      m.forEach((key, a) -> assertHoldsTheTestValues(a, dtypeOf(key)));
      // numpy ignores mmap_mode for a .npz; so does joblib4j, loading it in memory
      Map<String, NDArray> mapped = Joblib.load(dir.resolve(name), MmapMode.READ_ONLY);
      assertThat(mapped.get("lf8").isMapped()).isFalse();
      assertThat(mapped).isEqualTo(m);
    }
  }

  @Test
  void joblib4jsStoredAndDeflatedNpzLoadInNumpyWithEveryArray() {
    Numpy.run(SAVE_ALL + "np.savez(sys.argv[1], **arrays)\n", dir.resolve("from-numpy.npz"));
    Map<String, NDArray> m = Joblib.load(dir.resolve("from-numpy.npz"));
    Joblib.dump(m, dir.resolve("stored.npz"));
    Joblib.dump(m, dir.resolve("deflated.npz"), Compress.of(true));
    Joblib.dump(m, dir.resolve("deflated9.npz"), Compress.of("zlib", 9));
    String out = Numpy.run(SAVE_ALL + String.join("\n",
        "import zipfile",
        "for path, method in ((sys.argv[1], zipfile.ZIP_STORED), (sys.argv[2], zipfile.ZIP_DEFLATED),",
        "                     (sys.argv[3], zipfile.ZIP_DEFLATED)):",
        "    with zipfile.ZipFile(path) as z:",
        "        assert z.testzip() is None",
        "        assert all(i.compress_type == method for i in z.infolist()), path",
        "    with np.load(path) as npz:",
        "        assert list(npz.keys()) == list(arrays.keys()), list(npz.keys())",
        "        for k, a in arrays.items():",
        "            b = npz[k]",
        "            assert np.array_equal(a, b) and b.dtype == a.dtype.newbyteorder('<'), k",
        "        assert npz['fortran'].flags.f_contiguous",
        "print('ok')",
        ""), dir.resolve("stored.npz"), dir.resolve("deflated.npz"), dir.resolve("deflated9.npz"));
    assertThat(out).contains("ok");
  }

  @Test
  void anEmptyArchiveLoadsAsAnEmptyMapBothWays() {
    Joblib.dump(Map.of(), dir.resolve("empty.npz"));
    Numpy.run("import numpy as np, sys\nassert len(np.load(sys.argv[1]).files) == 0\nnp.savez(sys.argv[2])\n",
        dir.resolve("empty.npz"), dir.resolve("numpy-empty.npz"));
    Map<String, NDArray> m = Joblib.load(dir.resolve("numpy-empty.npz"));
    assertThat(m).isEmpty();
  }

  @Test
  void aNpzTakesOnlyStringKeysAndNDArraysAndOnlyDeflate() {
    Map<Object, Object> bad = new LinkedHashMap<>();
    bad.put("a", new double[] {1});
    assertThatThrownBy(() -> Joblib.dump(bad, dir.resolve("x.npz")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the value of 'a' is a [D")
        .hasMessageContaining("holds only NDArrays");
    assertThatThrownBy(() -> Joblib.dump(Map.of(1, NDArray.of(1.0)), dir.resolve("x.npz")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keys are non-empty strings");
    assertThatThrownBy(() -> Joblib.dump(NDArray.of(1.0), dir.resolve("x.npz")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds a Map<String, NDArray>");
    assertThatThrownBy(() -> Joblib.dump(Map.of("a", NDArray.of(1.0)), dir.resolve("x.npz"), Compress.of("zstd")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deflate (zlib)");
    assertThat(dir.resolve("x.npz")).doesNotExist();
  }
}
