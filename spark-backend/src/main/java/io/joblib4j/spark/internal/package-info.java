/**
 * How the spark backend works; not API. A call is one Spark job of worker tasks ({@code
 * ExecutorWorker}) that connect back to the driver ({@code DriverChannel}) and pull batches
 * ({@code SparkCall}); both ends speak joblib4j's worker protocol ({@link io.joblib4j.spi.worker}:
 * the executor side runs a {@code WorkerLoop}, the driver side holds a {@code WorkerLink} per
 * worker and the call's {@code BatchCodec}). Large arguments travel once as broadcasts ({@code
 * ArgumentSharing}, the call's {@code ArgumentSharer}); worker initializers run once per executor
 * JVM. What the driver itself raises for a call is built in {@code DriverFailures}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.spark.internal;

import org.apiguardian.api.API;
