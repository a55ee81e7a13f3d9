/**
 * The Spark Connect path of joblib4j's {@code spark} backend: {@link
 * io.joblib4j.spark.connect.SparkConnectBackend} runs the batches of a {@code Parallel} call on the
 * executors behind a Spark Connect session (Databricks shared and serverless compute, Spark 4's
 * {@code spark.api.mode=connect}, any {@code sc://} server), with only the Spark Connect client on
 * the class path. {@code backend("spark")} and {@code new SparkBackend(connectSession)} come here by
 * themselves when this module is on the class path.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
package io.joblib4j.spark.connect;

import org.apiguardian.api.API;
