/**
 * The Hadoop store's implementation: the rename and marker publish protocols, the node-local copy
 * cache, configuration, lease recovery and the outage breaker. Not API.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.hdfs.internal;

import org.apiguardian.api.API;
