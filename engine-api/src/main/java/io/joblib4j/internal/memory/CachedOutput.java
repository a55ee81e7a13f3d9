package io.joblib4j.internal.memory;

/**
 * What an entry's output file holds: the result and the call key it belongs to, so that a file
 * copied or moved from another entry is recognised as foreign instead of served as this call's
 * result.
 */
record CachedOutput(String key, Object value) {}
