package io.joblib4j.cli;

import io.joblib4j.CacheLimits;
import io.joblib4j.cli.internal.CliException;
import io.joblib4j.cli.internal.Text;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The limits of {@code prune} and {@code stages prune}. */
final class PruneOptions {
  @Option(names = "--max-size", paramLabel = "SIZE", description = "keep at most this many bytes: 10G, 500M, 1024")
  String maxSize;

  @Option(names = "--max-age", paramLabel = "AGE", description = "delete entries not read for this long: 30d, 12h, 1d12h, PT36H")
  String maxAge;

  @Option(names = "--max-items", paramLabel = "N", description = "keep at most N entries")
  Integer maxItems;

  @Option(names = "--dry-run", description = "only list what would be deleted")
  boolean dryRun;

  long maxBytes() {
    return maxSize == null ? 0 : Text.parseSize("--max-size", maxSize);
  }

  Duration age() {
    return maxAge == null ? null : Text.parseAge("--max-age", maxAge);
  }

  int items() {
    if (maxItems != null && maxItems < 1) {
      throw new CliException(Main.USAGE, "--max-items " + maxItems + ": must be 1 or more (clear deletes everything)");
    }
    return maxItems == null ? 0 : maxItems;
  }

  /** The limits given, as every cache states them; {@link #check()} first. */
  CacheLimits limits() {
    CacheLimits l = CacheLimits.none();
    if (maxSize != null) {
      l = l.bytes(maxBytes());
    }
    if (maxItems != null) {
      l = l.items(items());
    }
    if (maxAge != null) {
      l = l.age(age());
    }
    return l;
  }

  /** At least one limit, checked before anything is read. */
  void check() {
    if (maxSize == null && maxAge == null && maxItems == null) {
      throw new CliException(Main.USAGE, "prune needs a limit: --max-size, --max-age or --max-items");
    }
    maxBytes();
    age();
    items();
  }
}
