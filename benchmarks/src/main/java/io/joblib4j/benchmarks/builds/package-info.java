/**
 * A side-by-side harness for two builds of engine-api in one JVM: each build in a class loader of
 * its own, called in alternating rounds, so both see the same machine load. For changes whose
 * cost is a ratio to the previous build rather than to a plain baseline.
 */
package io.joblib4j.benchmarks.builds;
