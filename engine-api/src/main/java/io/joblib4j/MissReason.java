package io.joblib4j;

import org.apiguardian.api.API;

/** Why a memoized call missed the cache, where it is knowable; counted by {@link CacheStats}. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum MissReason {
  /** No entry for the call's key, and nothing says why (new arguments, or it was pruned or cleared). */
  NO_ENTRY,
  /** No entry, and the function's stored entries were computed by other code (its code version changed). */
  CODE_VERSION_CHANGED,
  /** An entry was there but its validation ({@code expiresAfter}, {@code validation}) refused it. */
  EXPIRED,
  /** An entry was there but could not be loaded (damaged, or of a class the allow-list refuses); it is recomputed. */
  DAMAGED
}
