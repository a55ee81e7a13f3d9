/**
 * How the Spark Connect path works; not API. Each batch travels inside the plan (a row of a local
 * relation), runs in a typed {@code mapPartitions} on an executor through engine-api's worker
 * protocol, and comes back as a binary row through the Connect result stream.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.spark.connect.internal;

import org.apiguardian.api.API;
