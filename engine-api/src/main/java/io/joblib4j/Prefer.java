package io.joblib4j;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * A soft hint for the backend when none is set explicitly (joblib's {@code prefer}). Ignored when
 * a backend is named in the builder or the active {@link ParallelConfig}.
 */
@API(status = API.Status.STABLE, since = "0.1")
public enum Prefer {
  /** Threads of this JVM: cheap to start, share objects with the caller. */
  THREADS,
  /** Child JVMs: isolation from crashes and global state, at the cost of serialization. */
  PROCESSES;

  /**
   * Parses joblib's spelling: {@code "threads"} or {@code "processes"}.
   *
   * @param value {@code "threads"} or {@code "processes"}
   * @return the preference
   */
  public static Prefer parse(String value) {
    if (value != null) {
      switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "threads":
          return THREADS;
        case "processes":
          return PROCESSES;
        default:
          break;
      }
    }
    throw new IllegalArgumentException(
        "prefer must be \"threads\" or \"processes\", got " + (value == null ? "null" : "\"" + value + "\""));
  }
}
