/** Runs the HDFS example on a MiniDFSCluster it starts. */
package io.joblib4j.examples.hdfs;
