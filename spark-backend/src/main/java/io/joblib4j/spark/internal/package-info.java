/**
 * How the spark backend works; not API. A call is one Spark job of worker tasks that connect back
 * to the driver ({@code DriverChannel}) and pull batches ({@code SparkCall}, {@code
 * ExecutorWorker}); large arguments travel once as broadcasts ({@code ArgumentSharing}); worker
 * initializers run once per executor JVM ({@code ExecutorInitializers}).
 */
package io.joblib4j.spark.internal;
