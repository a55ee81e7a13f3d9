/** The {@code threads} backend: batches on daemon worker threads of the caller's JVM. */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.threads;

import org.apiguardian.api.API;
