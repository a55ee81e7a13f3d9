package io.joblib4j.hdfs.internal;

import java.util.Locale;
import java.util.Set;

/** How a store publishes entries; see {@link RenamePublisher} and {@link MarkerPublisher}. */
enum CommitMode {
  /** A temporary folder renamed into place: file systems with an atomic rename (HDFS, local). */
  RENAME,
  /** Final files written once, then a commit marker: object stores, whose rename is copy + delete. */
  MARKER;

  /** Schemes whose rename is atomic (a NameNode operation, or rename(2)). */
  private static final Set<String> ATOMIC_RENAME = Set.of("hdfs", "viewfs", "webhdfs", "swebhdfs", "file");

  static CommitMode forScheme(String scheme) {
    return ATOMIC_RENAME.contains(scheme.toLowerCase(Locale.ROOT)) ? RENAME : MARKER;
  }

  static CommitMode parse(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "rename" -> RENAME;
      case "marker" -> MARKER;
      default -> throw new IllegalArgumentException("store option commit must be \"rename\" or \"marker\", got \"" + text + "\"");
    };
  }
}
