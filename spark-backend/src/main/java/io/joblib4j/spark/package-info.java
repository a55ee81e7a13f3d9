/**
 * The Spark backend of joblib4j: {@code Parallel.builder().backend("spark")}, or {@link
 * io.joblib4j.spark.SparkBackend} for a session of your own. {@link
 * io.joblib4j.spark.RemoteTaskException} stands in for a task's exception that cannot travel back
 * to the driver as itself.
 */
package io.joblib4j.spark;
