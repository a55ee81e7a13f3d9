/**
 * The first mapped load and the first full scan of array files of 1 to 32 GiB, each in a fresh JVM
 * with the page cache dropped or warm (issue 39): per-file, single-shot figures that a JMH fork
 * cannot give, since a file is mapped for the first time only once. {@link LazyMapHarness} writes
 * the files, prepares the cache and starts one {@link LazyMapShot} (or numpy) per figure.
 */
package io.joblib4j.benchmarks.lazymaps;
