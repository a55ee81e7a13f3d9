package io.joblib4j;

import java.util.Locale;
import org.apiguardian.api.API;

/** A hard constraint on the backend (joblib's {@code require}). */
@API(status = API.Status.STABLE, since = "0.1")
public enum Require {
  /**
   * Tasks must see the caller's objects (they mutate shared state): only thread-based backends
   * qualify. With no explicit backend this picks threads; naming a backend that runs tasks in
   * other JVMs together with it is an error.
   */
  SHAREDMEM;

  /**
   * Parses joblib's spelling: {@code "sharedmem"}.
   *
   * @param value {@code "sharedmem"}
   * @return the requirement
   */
  public static Require parse(String value) {
    if (value != null && value.trim().toLowerCase(Locale.ROOT).equals("sharedmem")) {
      return SHAREDMEM;
    }
    throw new IllegalArgumentException(
        "require must be \"sharedmem\", got " + (value == null ? "null" : "\"" + value + "\""));
  }
}
