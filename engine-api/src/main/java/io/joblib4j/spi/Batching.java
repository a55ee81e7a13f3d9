package io.joblib4j.spi;

import org.apiguardian.api.API;

/**
 * A backend's hint to the core on how to batch its calls ({@link Backend#batching()}), followed
 * only when the user sets neither {@code batchSize} nor {@code preDispatch} (explicitly or through
 * {@code ParallelConfig}): what the user sets always wins.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum Batching {
  /**
   * joblib's rule, what every backend had before this hint: batches grow from one task until one
   * takes about 200 ms, {@code 2*n_jobs} tasks are sent up front and one batch more as each ends,
   * and the end of the input is cut into smaller batches so that no worker straggles.
   */
  ADAPTIVE,

  /**
   * For a backend whose every batch costs a fixed overhead far above handing a task over (a remote
   * operation: plan, analysis, a job), which adaptive batching cannot amortize, as it counts that
   * overhead into each batch's duration. When the input's size is known (a collection), it is cut
   * into equal batches, one per worker, all sent at once; when one per worker would exceed the
   * core's memory bound for a batch, into as many more as the bound needs, two per worker sent up
   * front. An input of unknown size (a stream, an iterator) is batched {@link #ADAPTIVE}ly.
   * Each batch still fails, is cancelled and delivers its results on its own, so the first failure
   * stops the others and unordered results arrive batch by batch.
   */
  ONE_PER_WORKER
}
