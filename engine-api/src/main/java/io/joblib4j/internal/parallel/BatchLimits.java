package io.joblib4j.internal.parallel;

/**
 * What keeps a call's footprint in the caller's heap flat however many tasks it streams: a cap on
 * auto-batched batches, by count and by estimated bytes, and the number of finished batches that
 * may wait for the caller before dispatch pauses.
 *
 * <p>A call holds, besides what the caller keeps: the batches running or queued (about {@code
 * 2 * nJobs}, joblib's dispatch rule keeps that number constant), the batches split off the last
 * slice of the input ({@code nJobs - 1} at most), and the finished batches nobody has read yet (at
 * most {@link #maxWaitingBatches()}, then dispatch pauses until the caller reads). With every
 * auto-sized batch under {@link #maxBatchBytes()}, that is about {@code 7 * nJobs} batches, a
 * fraction of the heap whatever the number of tasks.
 *
 * @param maxBatchTasks the most tasks in one auto-sized batch
 * @param maxBatchBytes the most estimated heap bytes (tasks and their results) in one auto-sized batch
 * @param maxWaitingBatches finished batches the caller has not read after which dispatch pauses
 */
record BatchLimits(int maxBatchTasks, long maxBatchBytes, int maxWaitingBatches) {
  /**
   * Tasks per batch beyond which batching saves nothing more: a batch of this many tiny tasks
   * spends well under 1 % of its time on the hand-over, even to another JVM (measured in
   * BENCHMARKS.md), and bigger batches only cost memory and pipelining.
   */
  static final int MAX_BATCH_TASKS = 4096;
  /** The byte cap of one batch on a large heap. */
  static final long MAX_BATCH_BYTES = 4L << 20;
  /** The byte cap of one batch on any heap, so that tasks of a few kilobytes still batch. */
  static final long MIN_BATCH_BYTES = 64L << 10;
  /** Finished batches per job that may wait for the caller. */
  static final int WAITING_BATCHES_PER_JOB = 4;

  /**
   * The limits of a call with {@code nJobs} workers in a JVM whose maximum heap is {@code maxHeap}:
   * a batch gets at most 1/32 of the heap divided among the jobs, so the {@code 7 * nJobs} batches
   * a call may hold stay under a quarter of it.
   */
  static BatchLimits forCall(int nJobs, long maxHeap) {
    long perBatch = Math.max(MIN_BATCH_BYTES, Math.min(MAX_BATCH_BYTES, maxHeap / 32 / Math.max(1, nJobs)));
    return new BatchLimits(MAX_BATCH_TASKS, perBatch, Math.max(2, WAITING_BATCHES_PER_JOB * nJobs));
  }

  /** The limits of a call with {@code nJobs} workers in this JVM. */
  static BatchLimits forCall(int nJobs) {
    return forCall(nJobs, Runtime.getRuntime().maxMemory());
  }
}
