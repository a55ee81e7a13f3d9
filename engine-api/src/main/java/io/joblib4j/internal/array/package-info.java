/**
 * Storage behind {@link io.joblib4j.array.NDArray}: byte segments on the heap or memory-mapped from
 * a file. Not API.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.array;

import org.apiguardian.api.API;
