/**
 * joblib4j's public API: joblib for the JVM.
 *
 * <ul>
 *   <li>{@link io.joblib4j.Parallel} and {@link io.joblib4j.Delayed}: the parallel for-loop, on
 *       threads (the default), child JVMs, or Spark.
 *   <li>{@link io.joblib4j.ParallelConfig}: thread-scoped defaults for every call in a block.
 *   <li>{@link io.joblib4j.ProgressListener}: progress of calls, behind {@code verbose} and the
 *       Spark UI integration.
 * </ul>
 */
package io.joblib4j;
