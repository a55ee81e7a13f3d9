package io.joblib4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class SharedOutputArrayIT {

  @Test
  void workerJvmsFillTheSharedArrayExactlyAsALoopWould(@TempDir Path dir) {
    int n = 300;
    int m = 40;
    double[] a = SharedOutputArray.range(n);
    double[] b = SharedOutputArray.range(m);
    NDArray expected = NDArray.zeros(DType.FLOAT64, 2, n, m);
    for (int i = 0; i < n; i++) {
      SharedOutputArray.fillRow(i, a, b, expected);
    }
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).build();
         NDArray ab = NDArray.createMapped(dir.resolve("ab.f64"), DType.FLOAT64, 2, n, m)) {
      SharedOutputArray.fill(p, ab, a, b);
      assertThat(ab).isEqualTo(expected);
    }
  }

  @Test
  void theMainPrintsTheSeedsFiveByFiveResult() throws Exception {
    PrintStream old = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      SharedOutputArray.main(new String[] {"5", "5", "2"});
    } finally {
      System.setOut(old);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("filled a (2, 5, 5) array by rows on 2 worker JVMs")
        .contains("    4.0   5.0   6.0   7.0   8.0") // sums, last row
        .contains("    0.0   4.0   8.0  12.0  16.0"); // products, last row
  }
}
