package io.joblib4j;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * How {@link Joblib#load(java.nio.file.Path, MmapMode)} maps array data instead of reading it
 * (joblib's {@code mmap_mode}). Only uncompressed files loaded from a {@code Path} can be mapped;
 * anything else is loaded in memory with a warning.
 */
@API(status = API.Status.STABLE, since = "0.1")
public enum MmapMode {
  /** joblib {@code "r"}: shared, read-only; writing to the array throws. */
  READ_ONLY("r"),
  /** joblib {@code "r+"} (and {@code "w+"} on load): shared, writable; writes reach the file. */
  READ_WRITE("r+"),
  /** joblib {@code "c"}: copy-on-write; writes stay private to this mapping, the file never changes. */
  COPY_ON_WRITE("c");

  private final String joblibName;

  MmapMode(String joblibName) {
    this.joblibName = joblibName;
  }

  /**
   * The joblib / numpy spelling of this mode: {@code "r"}, {@code "r+"} or {@code "c"}.
   *
   * @return {@code "r"}, {@code "r+"} or {@code "c"}
   */
  public String joblibName() {
    return joblibName;
  }

  /**
   * The mode for a joblib / numpy mode string: {@code "r"}, {@code "r+"}, {@code "c"}, or {@code
   * "w+"}, which means {@link #READ_WRITE} (joblib never zeroes data on load). Also accepts the enum
   * names, case-insensitively.
   *
   * @param mode joblib's {@code "r"}, {@code "r+"}, {@code "w+"} or {@code "c"}
   * @return the mode
   * @throws IllegalArgumentException for any other string
   */
  public static MmapMode fromJoblib(String mode) {
    if (mode == null) {
      throw new IllegalArgumentException("mmap mode must not be null; use \"r\", \"r+\", \"w+\" or \"c\"");
    }
    switch (mode) {
      case "r":
        return READ_ONLY;
      case "r+":
      case "w+":
        return READ_WRITE;
      case "c":
        return COPY_ON_WRITE;
      default:
        for (MmapMode m : values()) {
          if (m.name().equals(mode.toUpperCase(Locale.ROOT).replace('-', '_'))) {
            return m;
          }
        }
        throw new IllegalArgumentException("Unknown mmap mode \"" + mode
            + "\": use \"r\" (read-only), \"r+\" or \"w+\" (read-write) or \"c\" (copy-on-write)");
    }
  }
}
