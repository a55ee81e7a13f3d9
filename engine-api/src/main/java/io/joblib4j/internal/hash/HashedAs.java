package io.joblib4j.internal.hash;

/**
 * Implemented by joblib4j's own objects that hash as what they mean rather than as their fields:
 * a memoized function is the function it memoizes, not its store, options and caches.
 */
public interface HashedAs {
  /** The value hashed in this object's place. */
  Object hashedAs();
}
