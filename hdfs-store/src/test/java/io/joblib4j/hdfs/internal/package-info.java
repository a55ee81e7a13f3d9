/** The contract suites on MiniDFS, file: and a fake object store, and the fault tests. */
package io.joblib4j.hdfs.internal;
