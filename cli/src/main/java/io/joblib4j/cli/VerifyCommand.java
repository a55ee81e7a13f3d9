package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.VerifyReport;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Progress;
import io.joblib4j.cli.internal.Text;
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

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.open(where)) {
      VerifyReport r = Progress.during("verifying", () -> cache.memory().verify(repair));
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
}
