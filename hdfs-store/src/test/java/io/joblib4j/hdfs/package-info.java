/** Tests of the Hadoop store's public API, and the MiniDFSCluster the tests share. */
package io.joblib4j.hdfs;
