package io.joblib4j.internal.persist.npy;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import io.joblib4j.Parallel;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's shared output array across languages: a {@code .npy} that numpy's {@code open_memmap}
 * makes (or joblib4j's {@code createMapped}), filled by the processes backend's workers, each writing
 * rows of its own, and read back by numpy. Skipped loudly without python3 and numpy.
 */
@Timeout(180)
class NpyOpenMemmapIT {
  private static final int ROWS = 200;
  private static final int COLS = 50;

  @TempDir Path dir;

  /** Fills rows {@code [from, to)} of {@code out} with {@code i * 1000 + j}; returns the worker's pid. */
  static long fillRows(NDArray out, int from, int to) {
    NDArray rows = out.slice(from, to);
    for (int i = 0; i < to - from; i++) {
      for (int j = 0; j < COLS; j++) {
        rows.setDouble((from + i) * 1000.0 + j, i, j);
      }
    }
    return ProcessHandle.current().pid();
  }

  private static List<Long> fillInWorkers(NDArray out) {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).build()) {
      return p.run(IntStream.range(0, ROWS / 10).mapToObj(k -> delayed(
          (a, from) -> fillRows(a, from, from + 10), out, k * 10)));
    }
  }

  private static final String CHECK = String.join("\n",
      "import numpy as np, sys",
      "m = np.lib.format.open_memmap(sys.argv[1], mode='r')",
      "assert m.shape == (%d, %d) and m.dtype == np.float64, (m.shape, m.dtype)",
      "expected = np.arange(%d)[:, None] * 1000.0 + np.arange(%d)[None, :]",
      "assert np.array_equal(m, expected), m",
      "assert m.flags.f_contiguous == (sys.argv[2] == 'F')",
      "print('ok')",
      "");

  private String check(Path f, String order) {
    return Numpy.run(String.format(CHECK, ROWS, COLS, ROWS, COLS), f, order);
  }

  @Test
  void workersFillNumpysOpenMemmapFileAndNumpyReadsEveryRow() {
    Path f = dir.resolve("out.npy");
    Numpy.run("import numpy as np, sys\nnp.lib.format.open_memmap(sys.argv[1], mode='w+', dtype='<f8',"
        + " shape=(" + ROWS + ", " + COLS + ")).flush()\n", f);
    try (NDArray out = Joblib.load(f, MmapMode.READ_WRITE)) {
      assertThat(fillInWorkers(out)).doesNotContain(ProcessHandle.current().pid()).hasSize(ROWS / 10);
    }
    assertThat(check(f, "C")).contains("ok");
  }

  @Test
  void workersFillAFortranOrderedOpenMemmapFileThroughItsStrides() {
    Path f = dir.resolve("fortran.npy");
    Numpy.run("import numpy as np, sys\nnp.lib.format.open_memmap(sys.argv[1], mode='w+', dtype='<f8',"
        + " shape=(" + ROWS + ", " + COLS + "), fortran_order=True).flush()\n", f);
    try (NDArray out = Joblib.load(f, MmapMode.READ_WRITE)) {
      fillInWorkers(out);
    }
    assertThat(check(f, "F")).contains("ok");
  }

  @Test
  void workersFillANpyThatCreateMappedMadeAndNumpyOpenMemmapsIt() {
    Numpy.require();
    Path f = dir.resolve("made-in-java.npy");
    try (NDArray out = NDArray.createMapped(f, DType.FLOAT64, ROWS, COLS)) {
      fillInWorkers(out);
      assertThat(out.getDouble(ROWS - 1, COLS - 1)).isEqualTo((ROWS - 1) * 1000.0 + COLS - 1);
    }
    assertThat(check(f, "C")).contains("ok");
  }
}
