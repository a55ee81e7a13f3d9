/**
 * The Spark backend of joblib4j: {@code Parallel.builder().backend("spark")}, or {@link
 * io.joblib4j.spark.SparkBackend} for a session of your own. A task's exception that cannot travel
 * back to the driver as itself arrives as an {@link io.joblib4j.RemoteTaskException}, as on every
 * backend whose workers are other JVMs.
 *
 * <p>The pipeline-stage cache ({@code StageCache}, {@code StageCatalog}) lives in its own package,
 * {@code io.joblib4j.spark.stages}, from its own module ({@code joblib4j-stage-cache}).
 */
package io.joblib4j.spark;
