package io.joblib4j.internal.parallel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** joblib's test_utils.py::eval_expr rules, and pre_dispatch semantics. */
class PreDispatchTest {
  @Test
  void evaluatesJoblibExpressionsOfNJobs() {
    assertThat(PreDispatch.tasks("2*n_jobs", 4)).isEqualTo(8);
    assertThat(PreDispatch.tasks("2 * n_jobs + 1", 4)).isEqualTo(9);
    assertThat(PreDispatch.tasks("(n_jobs+1)//2", 4)).isEqualTo(2);
    assertThat(PreDispatch.tasks("n_jobs**2", 3)).isEqualTo(9);
    assertThat(PreDispatch.tasks("7 % 4", 1)).isEqualTo(3);
    assertThat(PreDispatch.tasks("-(-n_jobs)", 5)).isEqualTo(5);
    assertThat(PreDispatch.tasks("10", 5)).isEqualTo(10);
    assertThat(PreDispatch.tasks("3*nJobs", 2)).isEqualTo(6);
    assertThat(PreDispatch.tasks("all", 2)).isEqualTo(PreDispatch.ALL);
    assertThat(PreDispatch.tasks(" ALL ", 2)).isEqualTo(PreDispatch.ALL);
  }

  @Test
  void refusesAnythingButArithmetic() {
    for (String bad : new String[] {"exec('x')", "__import__('os')", "2^3", "n_jobs; 1", "1 +", "(1", "",
        "1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1", "10**7", "1/0", "1 % 0", "0", "-3"}) {
      assertThatThrownBy(() -> PreDispatch.tasks(bad, 2)).as(bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid preDispatch");
    }
  }
}
