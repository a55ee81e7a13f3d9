/**
 * JMH benchmarks, each beside a plain baseline measured in the same run. See BENCHMARKS.md at the
 * repository root for the commands and the figures.
 */
package io.joblib4j.benchmarks;
