package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheListing;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Text;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code joblib4j du LOCATION}: the bytes each function's entries take, largest first, and the total. */
@Command(name = "du", mixinStandardHelpOptions = true,
    description = "The size of each function's entries, largest first, and the total.")
final class DuCommand implements Callable<Integer> {
  @Mixin LocationOptions where;

  @Option(names = {"-s", "--summarize"}, description = "only the total")
  boolean summarize;

  @Option(names = {"-b", "--bytes"}, description = "sizes in bytes, not 1.5G")
  boolean bytes;

  @Option(names = "--json", description = "print JSON (sizes in bytes)")
  boolean json;

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.open(where)) {
      CacheListing listing = cache.list(false);
      if (json) {
        ObjectNode doc = Json.document("du", cache.location());
        if (!summarize) {
          doc.set("functions", MemoryCommands.functionsJson(listing));
        }
        doc.put("entryCount", listing.size());
        doc.put("totalBytes", listing.totalBytes());
        Json.print(c.out(), doc);
        return Main.OK;
      }
      if (!summarize) {
        for (CacheListing.FunctionTotal f : listing.functions()) {
          c.out().println(size(f.bytes()) + "\t" + f.entries() + "\t" + f.function() + "\t" + f.folder());
        }
      }
      c.out().println(size(listing.totalBytes()) + "\t" + listing.size() + "\ttotal");
      return Main.OK;
    }
  }

  private String size(long n) {
    return bytes ? Long.toString(n) : Text.size(n);
  }
}
