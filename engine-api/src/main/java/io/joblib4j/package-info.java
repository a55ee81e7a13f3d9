/**
 * joblib for the JVM: run many independent tasks in parallel, cache expensive results on disk, and
 * move large arrays around — on a laptop, in a {@code spark-submit} job, or in a notebook.
 *
 * <h2>Entry points</h2>
 *
 * <ul>
 *   <li>{@link io.joblib4j.Parallel} and {@link io.joblib4j.Delayed}: joblib's parallel for-loop,
 *       on threads (the default), child JVMs ({@code backend("processes")}) or Spark executors
 *       ({@code backend("spark")} with joblib4j-spark-backend), with auto-batching, streamed
 *       results, timeouts and fail-fast cancellation. {@link io.joblib4j.ParallelConfig} sets
 *       defaults for every call in a block; {@link io.joblib4j.ProgressListener} hears of progress.
 *   <li>{@link io.joblib4j.Memory}: a disk cache of function results, keyed by a content hash of
 *       the function's code, its captured values and its arguments. {@link
 *       io.joblib4j.Memory#cache(io.joblib4j.fn.Fn1) cache(fn)} returns a memoized function
 *       ({@link io.joblib4j.MemoizedFn1} ...) that can itself be a task.
 *   <li>{@link io.joblib4j.Joblib}: {@code dump}, {@code load} and {@code hash} — persistence
 *       with compression ({@link io.joblib4j.Compress}) and memory-mapped loading ({@link
 *       io.joblib4j.MmapMode}), and stable content hashes ({@link io.joblib4j.HashAlgorithm}).
 *       Loading refuses classes that are not allowed ({@link io.joblib4j.LoadOptions}), so a
 *       file cannot run code.
 *   <li>{@link io.joblib4j.array.NDArray}: typed n-dimensional arrays, on the heap or
 *       memory-mapped, shared with workers instead of copied.
 * </ul>
 *
 * <p>The function types tasks and memoized functions take are {@link io.joblib4j.fn.Fn0} ...
 * {@link io.joblib4j.fn.Fn6}: serializable, so that a task can leave the JVM. Backends and stores
 * of your own plug in through the SPI of {@link io.joblib4j.spi}.
 *
 * <h2>Example</h2>
 *
 * <pre>{@code
 * import static io.joblib4j.Delayed.delayed;
 *
 * Memory memory = new Memory("cache");                       // a folder; "hdfs://nn/cache" with joblib4j-hdfs-store
 * MemoizedFn1<Integer, double[]> features = memory.cache(Pipeline::features);
 * List<double[]> rows;
 * try (Parallel p = Parallel.nJobs(-1)) {                     // every CPU
 *   rows = p.run(days.stream().map(d -> delayed(features, d)));
 * }                                                            // a second run loads every result
 * Joblib.dump(rows, Path.of("rows.jl4j.zst"));                // compressed by the extension
 * }</pre>
 *
 * <h2>Errors</h2>
 *
 * <p>A task that throws makes the call throw that same exception, with the worker's stack trace.
 * Every other error joblib4j raises is a {@link io.joblib4j.JoblibException} (or a JDK exception
 * such as {@link java.io.UncheckedIOException} for I/O and {@link IllegalArgumentException} for bad
 * arguments), with a message that says what was wrong and what to do. Where a message names a task,
 * {@code task 7} is the task's index in the call's input, counted from 0 — the index of its result
 * in the list {@code run} returns.
 */
package io.joblib4j;
