/**
 * The Spark backend of joblib4j: {@code Parallel.builder().backend("spark")}, or {@link
 * io.joblib4j.spark.SparkBackend} for a session of your own. A task's exception that cannot travel
 * back to the driver as itself arrives as an {@link io.joblib4j.RemoteTaskException}, as on every
 * backend whose workers are other JVMs.
 */
package io.joblib4j.spark;
