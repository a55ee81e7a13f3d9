package io.joblib4j.internal.persist.npy;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Round trips with the real numpy (skipped loudly without python3 and numpy): every dtype NDArray
 * has, in each byte order numpy writes it, in C and Fortran order, numpy to joblib4j and back, each
 * value checked by its logical index on both sides.
 */
class NpyNumpyRoundTripTest {
  static final long[] SHAPE = {3, 4, 5};

  /** One file's dtype as numpy spells it, and its memory order. */
  record Case(String descr, DType dtype, boolean fortran) {
    String file() {
      return descr.replace('<', 'l').replace('>', 'b').replace('|', 'n') + (fortran ? "_F" : "_C") + ".npy";
    }
  }

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    for (boolean fortran : new boolean[] {false, true}) {
      for (String kind : new String[] {"f8", "f4", "i8", "i4", "i2"}) {
        for (String order : new String[] {"<", ">"}) {
          out.add(new Case(order + kind, DType.fromNumpyName(kind), fortran));
        }
      }
      for (String kind : new String[] {"i1", "u1", "b1"}) {
        out.add(new Case("|" + kind, DType.fromNumpyName(kind), fortran));
      }
    }
    return out;
  }

  /** The numpy expression for the test array of dtype {@code d}, from {@code n}: the C-order flat index. */
  static final String PYTHON_VALUES = String.join("\n",
      "import numpy as np",
      "def values(descr):",
      "    n = np.arange(60, dtype=np.int64).reshape(3, 4, 5)",
      "    kind = np.dtype(descr).kind",
      "    if kind == 'f':",
      "        return (n * 1.5 - 7.25).astype(descr)",
      "    if kind == 'b':",
      "        return (n % 3 == 0).astype(descr)",
      "    return (n * 37 - 500).astype(descr)",
      "");

  /** What {@link #PYTHON_VALUES} puts at C-order flat index {@code n}, as a double. */
  static double expected(DType d, long n) {
    switch (d) {
      case FLOAT64: case FLOAT32: return n * 1.5 - 7.25;
      case BOOL: return n % 3 == 0 ? 1 : 0;
      case INT8: return (byte) (n * 37 - 500);
      case UINT8: return (n * 37 - 500) & 0xff;
      case INT16: return (short) (n * 37 - 500);
      default: return n * 37 - 500;
    }
  }

  static void assertHoldsTheTestValues(NDArray a, DType dtype) {
    assertThat(a.dtype()).isEqualTo(dtype);
    assertThat(a.shape()).containsExactly(SHAPE);
    long n = 0;
    for (long i = 0; i < SHAPE[0]; i++) {
      for (long j = 0; j < SHAPE[1]; j++) {
        for (long k = 0; k < SHAPE[2]; k++) {
          assertThat(a.getDouble(i, j, k)).as("%s at (%d, %d, %d)", a, i, j, k).isEqualTo(expected(dtype, n++));
        }
      }
    }
  }

  @TempDir Path dir;

  @Test
  void numpysFilesOfEveryDtypeByteOrderAndMemoryOrderLoadWithEveryValueAtItsIndex() {
    List<Case> cases = cases();
    StringBuilder py = new StringBuilder(PYTHON_VALUES).append("import sys, os\nd = sys.argv[1]\n");
    for (Case c : cases) {
      py.append("a = values('").append(c.descr()).append("')\n")
          .append(c.fortran() ? "a = np.asfortranarray(a)\n" : "a = np.ascontiguousarray(a)\n")
          .append("assert a.dtype.str == '").append(c.descr()).append("', a.dtype.str\n")
          .append("np.save(os.path.join(d, '").append(c.file()).append("'), a)\n");
    }
    Numpy.run(py.toString(), dir);
    for (Case c : cases) {
      NDArray a = Joblib.load(dir.resolve(c.file()));
      assertThat(a.isMapped()).isFalse();
      assertHoldsTheTestValues(a, c.dtype());
      try (NDArray m = Joblib.load(dir.resolve(c.file()), MmapMode.READ_ONLY)) {
        // big-endian data cannot be mapped as NDArray's little-endian elements: it loads byte-swapped
        assertThat(m.isMapped()).as(c.file()).isEqualTo(!c.descr().startsWith(">"));
        assertHoldsTheTestValues(m, c.dtype());
      }
    }
    assertThat(cases).hasSize(26);
  }

  @Test
  void joblib4jsNpyFilesOfEveryDtypeAndMemoryOrderLoadInNumpyWithEveryValueAtItsIndex() {
    List<Case> cases = cases();
    StringBuilder py = new StringBuilder(PYTHON_VALUES).append("import sys, os\nd = sys.argv[1]\n");
    for (Case c : cases) {
      py.append("a = values('").append(c.descr()).append("')\n")
          .append(c.fortran() ? "a = np.asfortranarray(a)\n" : "")
          .append("np.save(os.path.join(d, 'from-numpy-").append(c.file()).append("'), a)\n");
    }
    Numpy.run(py.toString(), dir);
    StringBuilder check = new StringBuilder(PYTHON_VALUES).append("import sys, os\nd = sys.argv[1]\n");
    for (Case c : cases) {
      // what joblib4j loaded (a Fortran-ordered array keeps its order), dumped again
      NDArray loaded = Joblib.load(dir.resolve("from-numpy-" + c.file()));
      Joblib.dump(loaded, dir.resolve("from-java-" + c.file()));
      String little = c.descr().replace('>', '<');
      check.append("b = np.load(os.path.join(d, 'from-java-").append(c.file()).append("'))\n")
          .append("assert b.dtype.str == '").append(little).append("', ('").append(c.file()).append("', b.dtype.str)\n")
          .append("assert b.shape == (3, 4, 5), b.shape\n")
          .append("assert np.array_equal(b, values('").append(little).append("')), '").append(c.file()).append("'\n")
          .append("assert b.flags.f_contiguous == ").append(c.fortran() ? "True" : "False")
          .append(" and b.flags.c_contiguous == ").append(c.fortran() ? "False" : "True").append(", '")
          .append(c.file()).append("'\n");
    }
    check.append("print('ok', ").append(cases.size()).append(")\n");
    assertThat(Numpy.run(check.toString(), dir)).contains("ok 26");
  }

  @Test
  void arraysBuiltInJavaOfEveryDtypeLoadInNumpy() {
    StringBuilder check = new StringBuilder(PYTHON_VALUES).append("import sys, os\nd = sys.argv[1]\n");
    for (DType d : DType.values()) {
      NDArray a = NDArray.zeros(d, SHAPE);
      long n = 0;
      for (long i = 0; i < SHAPE[0]; i++) {
        for (long j = 0; j < SHAPE[1]; j++) {
          for (long k = 0; k < SHAPE[2]; k++) {
            a.setDouble(expected(d, n++), i, j, k);
          }
        }
      }
      Joblib.dump(a, dir.resolve(d.numpyName() + ".npy"));
      check.append("b = np.load(os.path.join(d, '").append(d.numpyName()).append(".npy'))\n")
          .append("assert b.dtype == np.dtype('").append(d.numpyName()).append("'), b.dtype\n")
          .append("assert np.array_equal(b, values('").append(d.numpyName()).append("')), '")
          .append(d.numpyName()).append("'\n");
    }
    Numpy.run(check.toString(), dir);
  }

  @Test
  void everyFormatVersionNumpyWritesLoads() {
    Numpy.run(PYTHON_VALUES + String.join("\n",
        "import sys, os",
        "for v in (1, 2, 3):",
        "    with open(os.path.join(sys.argv[1], 'v%d.npy' % v), 'wb') as f:",
        "        np.lib.format.write_array(f, values('<i4'), version=(v, 0))",
        ""), dir);
    for (int v = 1; v <= 3; v++) {
      Path f = dir.resolve("v" + v + ".npy");
      NDArray a = Joblib.load(f);
      assertHoldsTheTestValues(a, DType.INT32);
      try (NDArray m = Joblib.load(f, MmapMode.READ_ONLY)) {
        assertThat(m.isMapped()).isTrue();
        assertHoldsTheTestValues(m, DType.INT32);
      }
    }
  }

  @Test
  void zeroDimensionalAndEmptyArraysCrossBothWays() {
    Numpy.run(String.join("\n",
        "import numpy as np, sys, os",
        "np.save(os.path.join(sys.argv[1], 'scalar.npy'), np.array(2.5))",
        "np.save(os.path.join(sys.argv[1], 'empty.npy'), np.zeros((0, 3), dtype='<i8'))",
        ""), dir);
    NDArray scalar = Joblib.load(dir.resolve("scalar.npy"));
    assertThat(scalar.shape()).isEmpty();
    assertThat(scalar.getDouble()).isEqualTo(2.5);
    NDArray empty = Joblib.load(dir.resolve("empty.npy"), MmapMode.READ_ONLY);
    assertThat(empty.shape()).containsExactly(0, 3);
    Joblib.dump(scalar, dir.resolve("scalar-back.npy"));
    Joblib.dump(empty, dir.resolve("empty-back.npy"));
    Numpy.run(String.join("\n",
        "import numpy as np, sys, os",
        "s = np.load(os.path.join(sys.argv[1], 'scalar-back.npy'))",
        "assert s.shape == () and s == 2.5, s",
        "e = np.load(os.path.join(sys.argv[1], 'empty-back.npy'))",
        "assert e.shape == (0, 3) and e.dtype == np.int64, e",
        ""), dir);
  }
}
