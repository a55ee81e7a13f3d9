package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheEntry;
import io.joblib4j.CacheListing;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Json;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code joblib4j ls LOCATION [FUNCTION]}: the functions, or the entries, with sizes and last access. */
@Command(name = "ls", mixinStandardHelpOptions = true,
    description = {"List the functions of a cache (entries, size, last access), or the entries of one function "
        + "(or of all, with --entries), least recently used first.",
        "Reads only the store's listing: as quick as a recursive listing of the folder."})
final class LsCommand implements Callable<Integer> {
  @Mixin LocationOptions where;

  @Parameters(index = "1", arity = "0..1", paramLabel = "FUNCTION", description = "a function's name (Signals.hamming) or folder")
  String function;

  @Option(names = {"-l", "--entries"}, description = "list every entry, not one line per function")
  boolean entries;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.open(where)) {
      CacheListing listing = cache.list(false);
      List<CacheEntry> shown = function == null ? listing.entries()
          : listing.stream().filter(e -> MemoryCommands.ofFunction(e, function)).toList();
      if (function != null && shown.isEmpty()) {
        throw MemoryCommands.noSuchFunction(function, cache);
      }
      boolean perEntry = entries || function != null;
      if (json) {
        ObjectNode doc = Json.document("ls", cache.location());
        doc.set("functions", MemoryCommands.functionsJson(function == null ? listing
            : new CacheListing(listing.location(), shown)));
        if (perEntry) {
          doc.set("entries", MemoryCommands.json(shown));
        }
        doc.put("entryCount", shown.size());
        doc.put("totalBytes", shown.stream().mapToLong(CacheEntry::sizeBytes).sum());
        Json.print(c.out(), doc);
      } else if (listing.size() == 0) {
        c.err().println("no entries at " + cache.typed());
      } else if (perEntry) {
        MemoryCommands.table(c.out(), shown);
      } else {
        MemoryCommands.functions(c.out(), listing);
      }
      return Main.OK;
    }
  }
}
