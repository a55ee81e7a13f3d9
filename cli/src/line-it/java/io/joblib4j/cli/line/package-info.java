/**
 * The command line's {@code -spark} jar run by {@code spark-submit} on a Spark line other than the
 * one the build compiles against (tests only). Compiled and run by each line's module (Spark 3.5 on
 * Scala 2.12 and 2.13, and compat's Spark 4.0 and 4.1) against that line's jars; the build's own
 * line is covered by {@code CommandLineIT}.
 */
package io.joblib4j.cli.line;
