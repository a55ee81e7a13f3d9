/**
<<<<<<< HEAD
 * joblib4j's public API: joblib for the JVM.
 *
 * <ul>
 *   <li>{@link io.joblib4j.Parallel} and {@link io.joblib4j.Delayed}: the parallel for-loop, on
 *       threads (the default), child JVMs, or Spark.
 *   <li>{@link io.joblib4j.ParallelConfig}: thread-scoped defaults for every call in a block.
 *   <li>{@link io.joblib4j.ProgressListener}: progress of calls, behind {@code verbose} and the
 *       Spark UI integration.
 * </ul>
=======
 * joblib for the JVM: the public API.
 *
 * <p>Persistence and hashing live in {@link io.joblib4j.Joblib} ({@code dump}, {@code load}, {@code
 * hash}) with their options {@link io.joblib4j.Compress}, {@link io.joblib4j.MmapMode}, {@link
 * io.joblib4j.LoadOptions} and {@link io.joblib4j.HashAlgorithm}. Every error joblib4j raises is a
 * {@link io.joblib4j.JoblibException} (or a JDK exception such as {@link
 * java.io.UncheckedIOException} for I/O and {@link IllegalArgumentException} for bad arguments).
>>>>>>> persist
 */
package io.joblib4j;
