package io.joblib4j.internal.parallel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** joblib's AutoBatchingMixin rule. */
class AutoBatcherTest {
  private static final long MS = 1_000_000L;

  @Test
  void startsAtOneAndDoublesAtMostWhileBatchesAreFast() {
    AutoBatcher b = new AutoBatcher();
    assertThat(b.batchSize()).isEqualTo(1);
    b.batchCompleted(1, 1 * MS);
    assertThat(b.batchSize()).isEqualTo(2);
    b.batchCompleted(2, 2 * MS);
    assertThat(b.batchSize()).isEqualTo(4);
  }

  @Test
  void growsOnlyTowardsTheIdealDuration() {
    AutoBatcher b = new AutoBatcher();
    b.batchCompleted(1, 150 * MS); // ideal = int(1 * 200/150) * 2 = 2
    assertThat(b.batchSize()).isEqualTo(2);
    b.batchCompleted(2, 190 * MS); // ideal = int(2 * 200/190) * 2 = 4, doubling allows 4
    assertThat(b.batchSize()).isEqualTo(4);
  }

  @Test
  void keepsTheSizeInsideTheIdealWindow() {
    AutoBatcher b = new AutoBatcher();
    b.batchCompleted(1, 500 * MS);
    assertThat(b.batchSize()).isEqualTo(1);
  }

  @Test
  void shrinksFastWhenBatchesAreTooSlow() {
    AutoBatcher b = new AutoBatcher();
    for (int expected : new int[] {2, 4, 8, 16}) {
      b.batchCompleted(b.currentSize(), 1 * MS);
      assertThat(b.batchSize()).isEqualTo(expected);
    }
    b.batchCompleted(16, 4_000 * MS); // ideal = int(16 * 0.2/4) = 0 -> 2 * 0 -> at least 1
    assertThat(b.batchSize()).isEqualTo(1);
  }

  @Test
  void ignoresBatchesOfAnOldSizeAndSmoothsDurations() {
    AutoBatcher b = new AutoBatcher();
    b.batchCompleted(1, 1 * MS);
    assertThat(b.batchSize()).isEqualTo(2);
    b.batchCompleted(1, 900 * MS); // a straggler of the old size: ignored
    b.batchCompleted(2, 100 * MS);
    b.batchCompleted(2, 600 * MS); // smoothed: 0.8 * 100 + 0.2 * 600 = 200 ms: inside the window
    assertThat(b.batchSize()).isEqualTo(2);
  }
}
