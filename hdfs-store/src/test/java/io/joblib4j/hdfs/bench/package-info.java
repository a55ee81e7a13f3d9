/** The Hadoop store's benchmark harness, run on a MiniDFSCluster (see BENCHMARKS.md, "HDFS store"). */
package io.joblib4j.hdfs.bench;
