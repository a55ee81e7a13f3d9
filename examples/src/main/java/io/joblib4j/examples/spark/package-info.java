/** A spark-submit application that runs a {@code Parallel} call on the spark backend. */
package io.joblib4j.examples.spark;
