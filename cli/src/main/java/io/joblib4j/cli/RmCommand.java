package io.joblib4j.cli;

import io.joblib4j.CacheEntry;
import io.joblib4j.CacheListing;
import io.joblib4j.cli.internal.CliException;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Text;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code joblib4j rm LOCATION FUNCTION|KEY}: deletes a function's folder with its entries, or one
 * entry. A process reading a deleted entry at that moment recomputes it, as after a prune.
 */
@Command(name = "rm", mixinStandardHelpOptions = true,
    description = "Delete every entry of a function (its folder), or one entry by its key (or a unique start of it).")
final class RmCommand implements Callable<Integer> {
  @Mixin LocationOptions where;

  @Parameters(index = "1", paramLabel = "FUNCTION|KEY", description = "a function's name or folder, or an entry's key")
  String target;

  @Option(names = "--dry-run", description = "only say what would be deleted")
  boolean dryRun;

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.openToDelete(where, dryRun)) {
      CacheListing listing = cache.list(false);
      List<CacheEntry> ofFunction = listing.stream().filter(e -> MemoryCommands.ofFunction(e, target)).toList();
      Set<String> paths = new LinkedHashSet<>();
      List<CacheEntry> deleted;
      if (!ofFunction.isEmpty()) {
        ofFunction.forEach(e -> paths.add(e.functionFolder()));
        deleted = ofFunction;
      } else {
        deleted = MemoryCommands.byKey(listing, target);
        if (deleted.size() > 1) {
          throw new CliException(Main.USAGE, target + " is the start of " + deleted.size() + " keys; give more of it");
        }
        deleted.forEach(e -> paths.add(e.path()));
      }
      if (deleted.isEmpty()) {
        throw new CliException(Main.FINDINGS, "no function and no entry key " + target + " at " + cache.typed());
      }
      if (!dryRun) {
        for (String p : paths) {
          cache.memory().remove(p);
        }
      }
      long bytes = deleted.stream().mapToLong(CacheEntry::sizeBytes).sum();
      for (String p : paths) {
        c.out().println(p);
      }
      c.err().println((dryRun ? "would delete " : "deleted ") + deleted.size() + (deleted.size() == 1 ? " entry (" : " entries (")
          + Text.size(bytes) + ")");
      return Main.OK;
    }
  }
}
