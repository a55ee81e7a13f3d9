/**
 * The pipeline-stage cache: {@link io.joblib4j.spark.StageCache} keeps what a function from
 * Datasets to a Dataset returns as Parquet (or ORC) in a cache folder on HDFS or any
 * Hadoop file system, keyed by the function's code, its arguments, and each Dataset argument's plan
 * and inputs, and reads it back on later runs; {@link io.joblib4j.spark.StageCatalog} lists, sizes,
 * prunes and clears those entries without Spark (the command line's {@code stages} commands). This
 * module shares the package with the Spark backend ({@code joblib4j-spark-backend}), whose
 * {@code SparkBackend} lives here too.
 */
package io.joblib4j.spark;
