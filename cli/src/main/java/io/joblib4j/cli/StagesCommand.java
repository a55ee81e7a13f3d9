package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.cli.internal.CliException;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Guard;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Progress;
import io.joblib4j.cli.internal.Text;
import io.joblib4j.spark.stages.StageCatalog;
import io.joblib4j.spark.stages.StageEntry;
import io.joblib4j.spi.Store;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code joblib4j stages ...}: the pipeline-stage cache at a location (its {@code stages/} folder). */
@Command(name = "stages", description = "List, size, delete and prune the entries of a pipeline-stage cache (StageCache).",
    mixinStandardHelpOptions = true,
    subcommands = {StagesCommand.Ls.class, StagesCommand.Du.class, StagesCommand.Rm.class, StagesCommand.Prune.class,
        StagesCommand.Clear.class, StagesCommand.Sweep.class})
final class StagesCommand {

  /** Opens the catalog over a store the caller closes. */
  static StageCatalog catalog(Store store) {
    return StageCatalog.of(store);
  }

  /** For the commands that delete, dry runs too: the store, refused where the location holds no joblib4j cache. */
  static Store openToDelete(LocationOptions where) {
    Store store = where.open();
    Guard.requireCache(store, where.location);
    return store;
  }

  static ObjectNode json(StageEntry e) {
    ObjectNode o = Json.object();
    o.put("stage", e.stage());
    o.put("name", e.name());
    o.put("key", e.key());
    o.put("bytes", e.bytes());
    o.put("rows", e.rows());
    o.put("created", Text.iso(e.created()));
    o.put("lastAccess", Text.iso(e.lastAccess()));
    ArrayNode inputs = o.putArray("inputs");
    e.inputs().forEach(inputs::add);
    o.put("data", e.data());
    return o;
  }

  static void table(PrintStream out, List<StageEntry> entries) {
    Text.Table t = new Text.Table("STAGE", "KEY", "ROWS", "SIZE", "LAST ACCESS", "CREATED").right(2, 3);
    for (StageEntry e : entries) {
      t.row(e.stage(), e.key(), e.rows(), Text.size(e.bytes()), Text.time(e.lastAccess()), Text.time(e.created()));
    }
    t.print(out);
  }

  @Command(name = "ls", description = "List every stage entry (or one stage's): key, rows, size, last access.",
      mixinStandardHelpOptions = true)
  static final class Ls implements Callable<Integer> {
    @Mixin LocationOptions where;

    @Parameters(index = "1", arity = "0..1", paramLabel = "STAGE", description = "a stage's name (Pipeline.clean) or folder")
    String stage;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() {
      Context c = Context.current();
      try (Store store = where.open()) {
        StageCatalog stages = catalog(store);
        List<StageEntry> entries = Progress.during("listing", () -> stage == null ? stages.list() : stages.list(stage));
        if (json) {
          ObjectNode doc = Json.document("stages ls", store.location().toString());
          ArrayNode list = doc.putArray("entries");
          entries.forEach(e -> list.add(json(e)));
          doc.put("totalBytes", entries.stream().mapToLong(StageEntry::bytes).sum());
          Json.print(c.out(), doc);
        } else if (entries.isEmpty()) {
          c.err().println(stage == null ? "no stage entries at " + where.location
              : "no entries of stage " + stage + " at " + where.location);
        } else {
          table(c.out(), entries);
        }
        return stage != null && entries.isEmpty() ? Main.FINDINGS : Main.OK;
      }
    }
  }

  @Command(name = "du", description = "The size of each stage (entries, rows, bytes) and the total.",
      mixinStandardHelpOptions = true)
  static final class Du implements Callable<Integer> {
    @Mixin LocationOptions where;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() {
      Context c = Context.current();
      try (Store store = where.open()) {
        List<StageEntry> entries = Progress.during("listing", () -> catalog(store).list());
        Map<String, long[]> perStage = new TreeMap<>();
        for (StageEntry e : entries) {
          long[] s = perStage.computeIfAbsent(e.stage(), k -> new long[3]);
          s[0]++;
          s[1] += e.rows();
          s[2] += e.bytes();
        }
        long total = entries.stream().mapToLong(StageEntry::bytes).sum();
        if (json) {
          ObjectNode doc = Json.document("stages du", store.location().toString());
          ArrayNode list = doc.putArray("stages");
          perStage.forEach((stage, s) -> {
            ObjectNode o = list.addObject();
            o.put("stage", stage);
            o.put("entries", s[0]);
            o.put("rows", s[1]);
            o.put("bytes", s[2]);
          });
          doc.put("entries", entries.size());
          doc.put("totalBytes", total);
          Json.print(c.out(), doc);
        } else {
          Text.Table t = new Text.Table("STAGE", "ENTRIES", "ROWS", "SIZE").right(1, 2, 3);
          perStage.forEach((stage, s) -> t.row(stage, s[0], s[1], Text.size(s[2])));
          t.row("total", entries.size(), entries.stream().mapToLong(StageEntry::rows).sum(), Text.size(total));
          t.print(c.out());
        }
        return Main.OK;
      }
    }
  }

  @Command(name = "rm", description = "Delete the entries of a stage, or one entry by its key (or a unique start of it).",
      mixinStandardHelpOptions = true)
  static final class Rm implements Callable<Integer> {
    @Mixin LocationOptions where;

    @Parameters(index = "1", paramLabel = "STAGE|KEY", description = "a stage's name or folder, or an entry's key")
    String target;

    @Override
    public Integer call() {
      Context c = Context.current();
      try (Store store = openToDelete(where)) {
        StageCatalog stages = catalog(store);
        List<StageEntry> all = stages.list();
        List<StageEntry> byKey = all.stream().filter(e -> target.length() >= 6 && e.key().startsWith(target)).toList();
        if (byKey.size() > 1) {
          throw new CliException(Main.USAGE, "the key " + target + " is the start of " + byKey.size()
              + " entries' keys; give more of it");
        }
        if (byKey.size() == 1) {
          StageEntry e = byKey.get(0);
          stages.delete(e);
          c.err().println("deleted " + e.stage() + "/" + e.key() + " (" + Text.size(e.bytes()) + ")");
          return Main.OK;
        }
        List<StageEntry> ofStage = all.stream().filter(e -> e.stage().equals(target) || e.name().equals(target)).toList();
        if (ofStage.isEmpty()) {
          throw new CliException(Main.FINDINGS, "no stage and no entry key " + target + " at " + where.location
              + " (joblib4j stages ls " + where.location + " lists them)");
        }
        int n = stages.clear(target);
        c.err().println("deleted " + n + " entries of " + target + " ("
            + Text.size(ofStage.stream().mapToLong(StageEntry::bytes).sum()) + ")");
        return Main.OK;
      }
    }
  }

  @Command(name = "prune", description = "Delete the entries not read for --max-age, then the least recently read until "
      + "--max-items and --max-size hold.", mixinStandardHelpOptions = true)
  static final class Prune implements Callable<Integer> {
    @Mixin LocationOptions where;
    @Mixin PruneOptions limits;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() {
      limits.check();
      Context c = Context.current();
      try (Store store = openToDelete(where)) {
        // the dry run is the plan the real run carries out: one planner for both
        List<StageEntry> deleted = Progress.during("pruning", () -> catalog(store).prune(limits.limits(), limits.dryRun));
        long bytes = deleted.stream().mapToLong(StageEntry::bytes).sum();
        if (json) {
          ObjectNode doc = Json.document("stages prune", store.location().toString());
          doc.put("dryRun", limits.dryRun);
          ArrayNode list = doc.putArray("deleted");
          deleted.forEach(e -> list.add(json(e)));
          doc.put("deletedBytes", bytes);
          Json.print(c.out(), doc);
        } else {
          if (!deleted.isEmpty()) {
            table(c.out(), deleted);
          }
          c.err().println((limits.dryRun ? "would delete " : "deleted ") + deleted.size() + " entries ("
              + Text.size(bytes) + ")");
        }
        return Main.OK;
      }
    }
  }

  @Command(name = "clear", description = "Delete every entry of one stage, or of every stage (the Memory entries at the "
      + "same location stay).", mixinStandardHelpOptions = true)
  static final class Clear implements Callable<Integer> {
    @Mixin LocationOptions where;

    @Parameters(index = "1", arity = "0..1", paramLabel = "STAGE", description = "a stage's name or folder (default: every stage)")
    String stage;

    @Override
    public Integer call() {
      Context c = Context.current();
      try (Store store = openToDelete(where)) {
        StageCatalog stages = catalog(store);
        if (stage != null && stages.list(stage).isEmpty()) {
          throw new CliException(Main.FINDINGS, "no entries of stage " + stage + " at " + where.location
              + " (joblib4j stages ls " + where.location + " lists them)");
        }
        int n = stage == null ? stages.clearAll() : stages.clear(stage);
        c.err().println("deleted " + n + " stage entries" + (stage == null ? "" : " of " + stage));
        return Main.OK;
      }
    }
  }

  @Command(name = "sweep", description = "Remove what writers that died left behind: unreferenced data folders and "
      + "temporaries older than --older-than.", mixinStandardHelpOptions = true)
  static final class Sweep implements Callable<Integer> {
    @Mixin LocationOptions where;

    @Option(names = "--older-than", paramLabel = "AGE", defaultValue = "1d",
        description = "leave younger leftovers alone: they may belong to a write still running (default: ${DEFAULT-VALUE})")
    String olderThan;

    @Override
    public Integer call() {
      Duration age = Text.parseAge("--older-than", olderThan);
      Context c = Context.current();
      try (Store store = openToDelete(where)) {
        int n = catalog(store).sweep(age);
        c.err().println("removed " + n + " abandoned data folders");
        return Main.OK;
      }
    }
  }

  private StagesCommand() {}

  static List<String> names(List<StageEntry> entries) {
    List<String> out = new ArrayList<>();
    entries.forEach(e -> out.add(e.stage() + "/" + e.key()));
    return out;
  }
}
