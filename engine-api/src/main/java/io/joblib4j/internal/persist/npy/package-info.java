/**
 * numpy's own files: {@code .npy} (format versions 1.0, 2.0 and 3.0) read into or mapped as an
 * {@link io.joblib4j.array.NDArray} and written from one, and {@code .npz} archives (stored or
 * deflated zips of {@code .npy} entries) read into and written from a {@code Map<String, NDArray>}.
 * The header is a Python literal dict read by a small strict parser (never evaluated); its length
 * and the array's shape are bounded by the file's size before anything is allocated; object arrays
 * (pickles) are refused before their data is read. Not API.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.persist.npy;

import org.apiguardian.api.API;
