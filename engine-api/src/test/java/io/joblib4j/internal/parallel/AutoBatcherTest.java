package io.joblib4j.internal.parallel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** joblib's AutoBatchingMixin rule, and the caps joblib does not have. */
class AutoBatcherTest {
  private static final long MS = 1_000_000L;

  /** The rule as joblib has it: no cap in reach of these tests. */
  private static AutoBatcher joblibRule() {
    return new AutoBatcher(new BatchLimits(Integer.MAX_VALUE / 2, Long.MAX_VALUE, 8));
  }

  @Test
  void tinyTasksGrowBatchesOnlyToTheTaskCap() {
    AutoBatcher b = new AutoBatcher(BatchLimits.forCall(2, 1L << 30));
    for (int i = 0; i < 40; i++) {
      b.batchCompleted(b.currentSize(), MS / 10); // far under 200 ms, whatever the size
      assertThat(b.batchSize()).isLessThanOrEqualTo(BatchLimits.MAX_BATCH_TASKS);
    }
    assertThat(b.currentSize()).isEqualTo(BatchLimits.MAX_BATCH_TASKS);
  }

  @Test
  void largeTasksAreCappedByTheirEstimatedBytes() {
    AutoBatcher b = new AutoBatcher(new BatchLimits(4096, 1 << 20, 8));
    b.taskSampled(100 << 10); // 100 KiB per task: 10 fit in 1 MiB
    for (int i = 0; i < 20; i++) {
      b.batchCompleted(b.currentSize(), MS);
      b.batchSize();
    }
    assertThat(b.currentSize()).isEqualTo(10);
    b.resultSampled(412 << 10); // and a result of 412 KiB: 2 task-and-result pairs fit
    assertThat(b.batchSize()).isEqualTo(2);
  }

  @Test
  void aStreamTurningToLargeTasksShrinksTheNextBatchAtOnce() {
    AutoBatcher b = new AutoBatcher(new BatchLimits(4096, 1 << 20, 8));
    b.taskSampled(64);
    for (int i = 0; i < 20; i++) {
      b.batchCompleted(b.currentSize(), MS);
      b.batchSize();
    }
    assertThat(b.currentSize()).isEqualTo(4096);
    b.taskSampled(512 << 10);
    assertThat(b.batchSize()).isEqualTo(2);
    b.taskSampled(64); // one small task among large ones halves the estimate, no more
    b.batchCompleted(2, MS);
    assertThat(b.batchSize()).isEqualTo(3);
  }

  @Test
  void theByteCapNeverGoesBelowOneTask() {
    AutoBatcher b = new AutoBatcher(new BatchLimits(4096, 1 << 20, 8));
    b.taskSampled(1L << 40);
    assertThat(b.batchSize()).isEqualTo(1);
  }

  @Test
  void aBatchGetsAShareOfTheHeapDividedAmongTheJobs() {
    assertThat(BatchLimits.forCall(2, 64L << 20).maxBatchBytes()).isEqualTo(1L << 20);
    assertThat(BatchLimits.forCall(2, 8L << 30).maxBatchBytes()).isEqualTo(BatchLimits.MAX_BATCH_BYTES);
    assertThat(BatchLimits.forCall(512, 64L << 20).maxBatchBytes()).isEqualTo(BatchLimits.MIN_BATCH_BYTES);
    assertThat(BatchLimits.forCall(3, 1L << 30).maxWaitingBatches()).isEqualTo(12);
  }

  @Test
  void startsAtOneAndDoublesAtMostWhileBatchesAreFast() {
    AutoBatcher b = joblibRule();
    assertThat(b.batchSize()).isEqualTo(1);
    b.batchCompleted(1, 1 * MS);
    assertThat(b.batchSize()).isEqualTo(2);
    b.batchCompleted(2, 2 * MS);
    assertThat(b.batchSize()).isEqualTo(4);
  }

  @Test
  void growsOnlyTowardsTheIdealDuration() {
    AutoBatcher b = joblibRule();
    b.batchCompleted(1, 150 * MS); // ideal = int(1 * 200/150) * 2 = 2
    assertThat(b.batchSize()).isEqualTo(2);
    b.batchCompleted(2, 190 * MS); // ideal = int(2 * 200/190) * 2 = 4, doubling allows 4
    assertThat(b.batchSize()).isEqualTo(4);
  }

  @Test
  void keepsTheSizeInsideTheIdealWindow() {
    AutoBatcher b = joblibRule();
    b.batchCompleted(1, 500 * MS);
    assertThat(b.batchSize()).isEqualTo(1);
  }

  @Test
  void shrinksFastWhenBatchesAreTooSlow() {
    AutoBatcher b = joblibRule();
    for (int expected : new int[] {2, 4, 8, 16}) {
      b.batchCompleted(b.currentSize(), 1 * MS);
      assertThat(b.batchSize()).isEqualTo(expected);
    }
    b.batchCompleted(16, 4_000 * MS); // ideal = int(16 * 0.2/4) = 0 -> 2 * 0 -> at least 1
    assertThat(b.batchSize()).isEqualTo(1);
  }

  @Test
  void ignoresBatchesOfAnOldSizeAndSmoothsDurations() {
    AutoBatcher b = joblibRule();
    b.batchCompleted(1, 1 * MS);
    assertThat(b.batchSize()).isEqualTo(2);
    b.batchCompleted(1, 900 * MS); // a straggler of the old size: ignored
    b.batchCompleted(2, 100 * MS);
    b.batchCompleted(2, 600 * MS); // smoothed: 0.8 * 100 + 0.2 * 600 = 200 ms: inside the window
    assertThat(b.batchSize()).isEqualTo(2);
  }
}
