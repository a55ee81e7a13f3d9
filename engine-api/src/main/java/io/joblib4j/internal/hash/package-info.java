/**
 * Content hashing behind {@link io.joblib4j.Joblib#hash(Object)}: the value walker ({@link
 * io.joblib4j.internal.hash.ValueHasher}), the digest sinks (xxHash3-128 over 64 KiB blocks and 1 MiB
 * array chunks, or SHA-256), and {@link io.joblib4j.internal.hash.StreamingHasher}, the incremental
 * API for callers that hash several parts without building a composite value (both throw the public
 * {@link io.joblib4j.UnhashableValueException}, which names the path to what cannot be hashed), and {@link io.joblib4j.internal.hash.HashedAs}, for joblib4j's objects that hash as what
 * they stand for. Not API.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.hash;

import org.apiguardian.api.API;
