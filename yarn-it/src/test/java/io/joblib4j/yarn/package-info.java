/**
 * joblib4j on YARN: spark-submit in client and cluster deploy mode on a MiniYARNCluster beside a
 * MiniDFSCluster, with only the bundle jar ({@link io.joblib4j.yarn.YarnSubmitIT}), and the
 * application it submits ({@link io.joblib4j.yarn.YarnJob}).
 */
package io.joblib4j.yarn;
