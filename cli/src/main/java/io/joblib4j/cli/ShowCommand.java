package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheEntry;
import io.joblib4j.CacheListing;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Text;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code joblib4j show LOCATION FUNCTION|KEY}: each entry in full, as its metadata.json records it. */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Every entry of a function (or one entry, by key) in full: arguments, code version, how long "
        + "the computation took, size, created, last access, path.")
final class ShowCommand implements Callable<Integer> {
  @Mixin LocationOptions where;

  @Parameters(index = "1", paramLabel = "FUNCTION|KEY", description = "a function's name or folder, or an entry's key (or its start)")
  String target;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.open(where)) {
      CacheListing listing = cache.list(true);
      List<CacheEntry> shown = listing.stream().filter(e -> MemoryCommands.ofFunction(e, target)).toList();
      if (shown.isEmpty()) {
        shown = MemoryCommands.byKey(listing, target);
      }
      if (shown.isEmpty()) {
        throw MemoryCommands.noSuchFunction(target, cache);
      }
      if (json) {
        ObjectNode doc = Json.document("show", cache.location());
        doc.set("entries", MemoryCommands.json(shown));
        Json.print(c.out(), doc);
      } else {
        for (CacheEntry e : shown) {
          print(c.out(), e);
        }
      }
      return Main.OK;
    }
  }

  static void print(PrintStream out, CacheEntry e) {
    out.println(e.function() + " " + e.key());
    out.println("  size         " + Text.size(e.sizeBytes()) + " (" + e.sizeBytes() + " bytes)");
    out.println("  created      " + Text.time(e.created()));
    out.println("  last access  " + Text.time(e.lastAccess()));
    out.println("  computed in  " + (e.duration() == null ? "(not recorded)" : seconds(e.duration())));
    out.println("  code version " + (e.codeVersion() == null ? "(not recorded)" : e.codeVersion()));
    if (e.arguments().isEmpty()) {
      out.println("  arguments    (not recorded)");
    } else {
      e.arguments().forEach((name, value) -> out.println("  argument     " + name + " = " + value));
    }
    out.println("  path         " + e.path());
  }

  private static String seconds(java.time.Duration d) {
    return String.format(java.util.Locale.ROOT, "%.3f s", d.toNanos() / 1e9);
  }
}
