package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheLimits;
import io.joblib4j.PruneReport;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Progress;
import io.joblib4j.cli.internal.Text;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code joblib4j prune LOCATION --max-size 10G --max-age 30d --max-items N [--dry-run]}: Memory.prune. */
@Command(name = "prune", mixinStandardHelpOptions = true,
    description = "Delete the entries not read for --max-age, then the least recently used until --max-items and "
        + "--max-size hold (Memory.prune). Entries being read by this JVM are never deleted; a reader elsewhere "
        + "of a pruned entry recomputes it.")
final class PruneCommand implements Callable<Integer> {
  @Mixin LocationOptions where;
  @Mixin PruneOptions limits;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() {
    limits.check();
    CacheLimits chosen = limits.limits();
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.openToDelete(where, limits.dryRun)) {
      PruneReport r = Progress.during("pruning", () -> cache.memory().prune(chosen, limits.dryRun));
      if (json) {
        ObjectNode doc = Json.document("prune", cache.location());
        doc.put("dryRun", r.dryRun());
        doc.set("removed", MemoryCommands.json(r.removed()));
        doc.put("removedBytes", r.bytesRemoved());
        doc.put("remainingEntries", r.remainingEntries());
        doc.put("remainingBytes", r.remainingBytes());
        Json.print(c.out(), doc);
      } else {
        if (!r.removed().isEmpty()) {
          MemoryCommands.table(c.out(), r.removed());
        }
        c.err().println((r.dryRun() ? "would delete " : "deleted ") + r.removed().size() + " entries ("
            + Text.size(r.bytesRemoved()) + "); " + r.remainingEntries() + " entries (" + Text.size(r.remainingBytes())
            + ") remain");
      }
      return Main.OK;
    }
  }
}
