/**
 * How the spark backend works; not API. A call is one Spark job of worker tasks ({@code
 * ExecutorWorker}) that connect back to the driver ({@code DriverChannel}) and pull batches
 * ({@code SparkCall}); both ends speak joblib4j's worker protocol ({@link io.joblib4j.spi.worker}:
 * the executor side runs a {@code WorkerLoop}, the driver side holds a {@code WorkerLink} per
 * worker and the call's {@code BatchCodec}). Before the protocol, a worker says which call it serves
 * ({@code ChannelHandshake}); it then proves itself with the call's token, and when Spark encrypts
 * its own RPC every byte is sealed with the call's key ({@code ChannelCrypto}). When executors
 * cannot reach the driver, a call runs each batch as a Spark job of its own instead ({@code
 * JobPathCall}, {@code JobPathTask}), the same frames carried inside the task and its result.
 * Settings are {@code spark.joblib4j.*} ({@code SparkJoblibKeys}, {@code SparkJoblibConf}). Large
 * arguments travel once as broadcasts ({@code ArgumentSharing}, the call's {@code ArgumentSharer});
 * worker initializers run once per executor JVM. What the driver itself raises for a call is built
 * in {@code DriverFailures}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.spark.internal;

import org.apiguardian.api.API;
