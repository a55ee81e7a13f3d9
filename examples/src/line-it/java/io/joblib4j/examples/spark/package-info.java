/**
 * {@code spark-submit} of the examples jar with only a line's bundle, locally and on a standalone
 * cluster in client and cluster mode (tests only). Run by this module on the build's Spark line and
 * by each other line's module (Spark 3.5 on Scala 2.13, compat's Spark 4.0 and 4.1) on that line's
 * jars; the lines that run on YARN submit there too.
 */
package io.joblib4j.examples.spark;
