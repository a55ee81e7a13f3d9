/** A Spark job that caches a pipeline step on HDFS and fills a chunked shared array from its executors. */
package io.joblib4j.examples.hdfs;
