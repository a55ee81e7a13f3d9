package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.VerifyReport;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Progress;
import io.joblib4j.cli.internal.Text;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code joblib4j verify LOCATION [--repair]}: Memory.verify; exit code 1 when it found a problem. */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = {"Check every entry's files against the sizes and CRC32C checksums its metadata.json records, and "
        + "report damaged entries, files Memory did not write, and temporaries of writers that died (older than an "
        + "hour). With --repair, delete them (a damaged entry is recomputed by the next call).",
        "Exit code 1 when anything was found (with --repair: found and deleted), 0 when all is well."})
final class VerifyCommand implements Callable<Integer> {
  @Mixin LocationOptions where;

  @Option(names = "--repair", description = "delete what is damaged, foreign or abandoned")
  boolean repair;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  /** Temporaries of writers that died: as old as Memory.verify wants them. */
  static final Duration ABANDONED_AFTER = Duration.ofHours(1);

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.open(where, repair)) {
      // A writing Memory sweeps the temporaries dead writers left (older than an hour) when it first uses
      // the store, before verify can see them: with --repair, read them first, so that they are reported
      // all the same. Without, the Memory is read-only and sweeps nothing.
      List<StoreFile> abandoned = repair ? temporaries(cache.store()) : List.of();
      VerifyReport r = withAbandoned(Progress.during("verifying", () -> cache.memory().verify(repair)), abandoned);
      if (json) {
        ObjectNode doc = Json.document("verify", cache.location());
        doc.put("entriesChecked", r.entriesChecked());
        doc.put("ok", r.ok());
        doc.put("repaired", r.repaired());
        ArrayNode problems = doc.putArray("problems");
        for (VerifyReport.Problem p : r.problems()) {
          ObjectNode o = problems.addObject();
          o.put("kind", p.kind().name());
          o.put("path", p.path());
          o.put("detail", p.detail());
        }
        Json.print(c.out(), doc);
      } else {
        if (!r.problems().isEmpty()) {
          Text.Table t = new Text.Table("PROBLEM", "PATH", "DETAIL");
          for (VerifyReport.Problem p : r.problems()) {
            t.row(p.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), p.path(), p.detail());
          }
          t.print(c.out());
        }
        c.err().println(r.entriesChecked() + " entries checked: " + (r.ok() ? "no problem found"
            : r.problems().size() + (r.problems().size() == 1 ? " problem" : " problems")
                + (r.repaired() ? " found and deleted" : " found (joblib4j verify --repair " + where.location
                + " deletes them)")));
      }
      return r.ok() ? Main.OK : Main.FINDINGS;
    }
  }

  private static List<StoreFile> temporaries(Store store) {
    try {
      return store.temporaries(ABANDONED_AFTER);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the temporaries at " + store.location() + ": " + e.getMessage(), e);
    }
  }

  /** The report with the temporaries found before Memory swept them, once each. */
  private static VerifyReport withAbandoned(VerifyReport r, List<StoreFile> abandoned) {
    Set<String> reported = new HashSet<>();
    r.problems().forEach(p -> reported.add(p.path()));
    List<VerifyReport.Problem> all = new ArrayList<>(r.problems());
    for (StoreFile t : abandoned) {
      if (reported.add(t.path())) {
        all.add(new VerifyReport.Problem(VerifyReport.Kind.ABANDONED_TEMPORARY, t.path(),
            "a temporary of a writer that died (last written " + t.lastModified() + ")"));
      }
    }
    return new VerifyReport(r.entriesChecked(), all, r.repaired());
  }
}
