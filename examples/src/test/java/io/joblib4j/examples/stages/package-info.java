/** Runs the stage pipeline example on a MiniDFSCluster. */
package io.joblib4j.examples.stages;
