/**
 * joblib4j's cache store on the Hadoop FileSystem API: {@code new Memory("hdfs://nn/cache")}, {@code
 * s3a://}, {@code abfs://}, {@code gs://}, {@code viewfs://} ... with the matching Hadoop client on
 * the class path ({@link io.joblib4j.hdfs.HadoopStores} says how entries are published on each);
 * and {@link io.joblib4j.hdfs.ChunkedArray}, one logical NDArray whose chunks Spark tasks on any
 * executor write to a store and a driver opens as one array.
 */
package io.joblib4j.hdfs;
