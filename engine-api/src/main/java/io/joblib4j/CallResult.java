package io.joblib4j;

import org.apiguardian.api.API;

/**
 * A result computed by {@code memoized.call(...)} and the metadata stored with it. When caching is
 * disabled (a {@code Memory} without location) the metadata is null.
 *
 * @param value the function's result
 * @param metadata what was stored with it, or null
 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public record CallResult<R>(R value, CacheMetadata metadata) {}
