package io.joblib4j.hdfs.internal;

/**
 * The names this store keeps for itself inside the root. They all start with {@code .jl4j-}, are
 * never listed, opened or accepted from callers, so nothing a caller publishes can collide with
 * them.
 */
final class Names {
  static final String RESERVED_PREFIX = ".jl4j-";
  /** An entry's manifest: its files with sizes and CRC32Cs; in marker mode also the commit point. */
  static final String COMMIT = ".jl4j-commit";
  /** Marker mode: the exclusive claim a writer takes before writing an entry's files. */
  static final String CLAIM = ".jl4j-claim";
  /** Marker mode: an entry's last access, as epoch milliseconds in the name (object mtimes cannot be set). */
  static final String ACCESS_PREFIX = ".jl4j-access-";
  /** Rename mode: a writer's temporary entry folder or replacement file. */
  static final String TEMP_PREFIX = ".jl4j-tmp-";

  private Names() {}

  static boolean reserved(String segment) {
    return segment.startsWith(RESERVED_PREFIX);
  }

  /** Throws if a caller's path uses a reserved segment. */
  static String checkNotReserved(String path) {
    for (String segment : path.split("/")) {
      if (reserved(segment)) {
        throw new IllegalArgumentException("invalid store path \"" + path + "\": names starting with \""
            + RESERVED_PREFIX + "\" are reserved by the Hadoop store");
      }
    }
    return path;
  }
}
