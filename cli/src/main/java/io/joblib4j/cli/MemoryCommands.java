package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheEntry;
import io.joblib4j.CacheListing;
import io.joblib4j.Memory;
import io.joblib4j.cli.internal.CliException;
import io.joblib4j.cli.internal.Guard;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Progress;
import io.joblib4j.cli.internal.Text;
import io.joblib4j.spi.Store;
import java.io.PrintStream;
import java.util.List;

/** What the Memory commands share: opening the cache, finding a function's entries, printing entries. */
final class MemoryCommands {
  private MemoryCommands() {}

  /** An open store and the Memory over it; closing closes the store. */
  record Cache(Store store, Memory memory, String typed) implements AutoCloseable {
    /**
     * For commands that only look ({@code ls}, {@code du}, {@code show}, {@code explain}, {@code
     * verify}, dry runs): a read-only Memory, which writes nothing, sweeps nothing and so works on a
     * location this user may only read, with one listing of the store.
     */
    static Cache open(LocationOptions where) {
      Store store = where.open();
      return new Cache(store, Memory.builder(store).verbose(0).readOnly().build(), where.location);
    }

    /**
     * For commands that delete ({@code rm}, {@code prune}, {@code verify --repair}), dry runs too:
     * refused, with nothing written, where the location holds no joblib4j cache. The check comes
     * before the Memory exists: a writing Memory prepares its location (a {@code .gitignore}), which at
     * a folder of the user's would hide their files from git.
     */
    static Cache openToDelete(LocationOptions where, boolean dryRun) {
      Store store = where.open();
      Guard.requireCache(store, where.location);
      Memory.Builder b = Memory.builder(store).verbose(0);
      return new Cache(store, (dryRun ? b.readOnly() : b).build(), where.location);
    }

    String location() {
      return store.location().toString();
    }

    /** The listing, with a progress bar on a terminal when it takes a while. */
    CacheListing list(boolean details) {
      return Progress.during(details ? "reading entries" : "listing", () -> memory.entries(details));
    }

    @Override
    public void close() {
      store.close();
    }
  }

  /** Whether {@code e} is of {@code function}: its short name ({@code Signals.hamming}) or its folder. */
  static boolean ofFunction(CacheEntry e, String function) {
    return e.function().equals(function) || e.functionFolder().equals(function);
  }

  /** The entry whose key is or starts with {@code key} (at least 6 hex digits), if any. */
  static List<CacheEntry> byKey(CacheListing listing, String key) {
    if (key.length() < 6 || !key.matches("[0-9a-fA-F]+")) {
      return List.of();
    }
    return listing.stream().filter(e -> e.key().startsWith(key.toLowerCase(java.util.Locale.ROOT))).toList();
  }

  static CliException noSuchFunction(String function, Cache cache) {
    return new CliException(Main.FINDINGS, "no entries of " + function + " at " + cache.typed()
        + " (joblib4j ls " + cache.typed() + " lists the functions)");
  }

  static ObjectNode json(CacheEntry e) {
    ObjectNode o = Json.object();
    o.put("function", e.function());
    o.put("functionFolder", e.functionFolder());
    o.put("key", e.key());
    o.put("bytes", e.sizeBytes());
    o.put("created", Text.iso(e.created()));
    o.put("lastAccess", Text.iso(e.lastAccess()));
    if (e.codeVersion() != null) {
      o.put("codeVersion", e.codeVersion());
    }
    if (e.duration() != null) {
      o.put("durationMillis", e.duration().toMillis());
    }
    if (!e.arguments().isEmpty()) {
      ObjectNode args = o.putObject("arguments");
      e.arguments().forEach(args::put);
    }
    o.put("path", e.path());
    return o;
  }

  static ArrayNode json(List<CacheEntry> entries) {
    ArrayNode a = Json.array();
    entries.forEach(e -> a.add(json(e)));
    return a;
  }

  static void table(PrintStream out, List<CacheEntry> entries) {
    Text.Table t = new Text.Table("FUNCTION", "KEY", "SIZE", "LAST ACCESS", "CREATED").right(2);
    for (CacheEntry e : entries) {
      t.row(e.function(), e.key(), Text.size(e.sizeBytes()), Text.time(e.lastAccess()), Text.time(e.created()));
    }
    t.print(out);
  }

  static void functions(PrintStream out, CacheListing listing) {
    Text.Table t = new Text.Table("FUNCTION", "FOLDER", "ENTRIES", "SIZE", "LAST ACCESS").right(2, 3);
    for (CacheListing.FunctionTotal f : listing.functions()) {
      t.row(f.function(), f.folder(), f.entries(), Text.size(f.bytes()), Text.time(f.lastAccess()));
    }
    t.print(out);
  }

  static ArrayNode functionsJson(CacheListing listing) {
    ArrayNode a = Json.array();
    for (CacheListing.FunctionTotal f : listing.functions()) {
      ObjectNode o = a.addObject();
      o.put("function", f.function());
      o.put("folder", f.folder());
      o.put("entries", f.entries());
      o.put("bytes", f.bytes());
      o.put("lastAccess", Text.iso(f.lastAccess()));
    }
    return a;
  }
}
