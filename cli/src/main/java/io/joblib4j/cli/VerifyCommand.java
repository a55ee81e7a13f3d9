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
import io.joblib4j.spi.upkeep.Sweep;
import java.io.IOException;
import java.io.UncheckedIOException;
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
        + "report damaged entries, files in Memory's folders it did not write, files that could not be read, and "
        + "temporaries of writers that died (older than an hour). With --repair, delete the damaged entries and the "
        + "temporaries (a damaged entry is recomputed by the next call); foreign files and what could not be read "
        + "are never deleted.",
        "Exit code 0 when all is well, 1 when something was found (with --repair: found and deleted what it may), "
        + "3 when some files could not be read (permission denied), 4 (with --repair) when the location holds no "
        + "joblib4j cache."})
final class VerifyCommand implements Callable<Integer> {
  @Mixin LocationOptions where;

  @Option(names = "--repair", description = "delete the damaged entries and abandoned temporaries (never foreign or unreadable files)")
  boolean repair;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = repair ? MemoryCommands.Cache.openToDelete(where, false)
        : MemoryCommands.Cache.open(where)) {
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
                + (r.repaired() ? repairedText(r)
                : " found (joblib4j verify --repair " + where.location + " deletes the damaged entries and temporaries)")));
      }
      if (!r.problems(VerifyReport.Kind.UNREADABLE).isEmpty()) {
        c.err().println("joblib4j: " + r.problems(VerifyReport.Kind.UNREADABLE).size() + " files could not be read"
            + " (see UNREADABLE above): run as the cache's owner to check them");
        return Main.UNREACHABLE;
      }
      return r.ok() ? Main.OK : Main.FINDINGS;
    }
  }

  /** What a repair did: everything found deleted, or which problems it left (the user's, the unreadable). */
  private static String repairedText(VerifyReport r) {
    long left = r.problems(VerifyReport.Kind.FOREIGN_FILE).size() + r.problems(VerifyReport.Kind.UNREADABLE).size();
    if (left == 0) {
      return " found and deleted";
    }
    return " found, " + (r.problems().size() - left) + " deleted; " + left + " left as they are (not Memory's, or"
        + " not readable)";
  }

  private static List<StoreFile> temporaries(Store store) {
    try {
      return Sweep.abandoned(store);
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
