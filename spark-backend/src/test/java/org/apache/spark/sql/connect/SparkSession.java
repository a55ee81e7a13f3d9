package org.apache.spark.sql.connect;

/** Stands for the Spark Connect client's session, which the spark backend recognizes by its class name. */
public final class SparkSession {}
