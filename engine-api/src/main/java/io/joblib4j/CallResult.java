package io.joblib4j;

/**
 * A result computed by {@code memoized.call(...)} and the metadata stored with it. When caching is
 * disabled (a {@code Memory} without location) the metadata is null.
 *
 * @param value the function's result
 * @param metadata what was stored with it, or null
 * @param <R> the result type
 */
public record CallResult<R>(R value, CacheMetadata metadata) {}
