/**
 * The first call of a fresh parent JVM on the processes backend, measured as it happens in real
 * use: a new JVM per shot ({@link FirstCallMain}), started by a harness ({@link FirstCallHarness})
 * on a jar class path and on a folder class path, rather than inside a warm JMH fork.
 */
package io.joblib4j.benchmarks.firstcall;
