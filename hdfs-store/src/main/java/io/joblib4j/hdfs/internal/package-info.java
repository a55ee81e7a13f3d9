/**
 * The Hadoop store's implementation: the rename and marker publish protocols, the node-local copy
 * cache, configuration, lease recovery and the outage breaker. Not API.
 */
package io.joblib4j.hdfs.internal;
