package io.joblib4j.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheEntry;
import io.joblib4j.CacheListing;
import io.joblib4j.cli.internal.CliException;
import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.Json;
import io.joblib4j.cli.internal.Text;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code joblib4j explain LOCATION FUNCTION [KEY]}: why a function's calls miss, from what its
 * entries record (code version, arguments), without running it. {@code memoized.explain(args)} is
 * the same question asked in code, for one call.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = {"Why a function's calls miss, from what its entries record: which code versions its entries were "
        + "computed with (entries of old code are never hit again) and which arguments vary between them.",
        "With KEY: how that entry differs from the function's entries closest to it (code version, arguments).",
        "In code, memoized.explain(args) tells the same for one call."})
final class ExplainCommand implements Callable<Integer> {
  /** Argument values listed per argument; more are counted. */
  static final int SHOWN_VALUES = 5;

  @Mixin LocationOptions where;

  @Parameters(index = "1", paramLabel = "FUNCTION", description = "a function's name or folder")
  String function;

  @Parameters(index = "2", arity = "0..1", paramLabel = "KEY", description = "one entry's key (or its start)")
  String key;

  @Option(names = "--json", description = "print JSON")
  boolean json;

  @Override
  public Integer call() {
    Context c = Context.current();
    try (MemoryCommands.Cache cache = MemoryCommands.Cache.open(where)) {
      CacheListing listing = cache.list(true);
      List<CacheEntry> entries = listing.stream().filter(e -> MemoryCommands.ofFunction(e, function)).toList();
      if (entries.isEmpty()) {
        throw MemoryCommands.noSuchFunction(function, cache);
      }
      ObjectNode doc = Json.document("explain", cache.location());
      doc.put("function", function);
      doc.put("entries", entries.size());
      if (key != null) {
        List<CacheEntry> match = entries.stream().filter(e -> e.key().startsWith(key.toLowerCase(java.util.Locale.ROOT))).toList();
        if (match.size() != 1) {
          throw new CliException(match.isEmpty() ? Main.FINDINGS : Main.USAGE, match.isEmpty()
              ? "no entry of " + function + " has a key starting " + key
              : key + " is the start of " + match.size() + " keys of " + function + "; give more of it");
        }
        closest(match.get(0), entries, doc, c.out());
      } else {
        overview(entries, doc, c.out());
      }
      if (json) {
        Json.print(c.out(), doc);
      }
      return Main.OK;
    }
  }

  /** Code versions and varying arguments over all of a function's entries. */
  private void overview(List<CacheEntry> entries, ObjectNode doc, PrintStream out) {
    Map<String, List<CacheEntry>> byVersion = new LinkedHashMap<>();
    entries.stream().sorted(Comparator.comparing(CacheEntry::created).reversed())
        .forEach(e -> byVersion.computeIfAbsent(String.valueOf(e.codeVersion()), k -> new ArrayList<>()).add(e));
    ArrayNode versions = doc.putArray("codeVersions");
    byVersion.forEach((v, es) -> {
      ObjectNode o = versions.addObject();
      o.put("codeVersion", v.equals("null") ? null : v);
      o.put("entries", es.size());
      o.put("bytes", es.stream().mapToLong(CacheEntry::sizeBytes).sum());
      o.put("newest", Text.iso(es.get(0).created()));
    });
    Map<String, Set<String>> values = new TreeMap<>();
    for (CacheEntry e : entries) {
      e.arguments().forEach((name, value) -> values.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(value));
    }
    ArrayNode args = doc.putArray("arguments");
    values.forEach((name, vs) -> {
      ObjectNode o = args.addObject();
      o.put("name", name);
      o.put("distinctValues", vs.size());
      ArrayNode shown = o.putArray("values");
      vs.stream().limit(SHOWN_VALUES).forEach(shown::add);
    });
    if (json) {
      return;
    }
    out.println(function + ": " + entries.size() + (entries.size() == 1 ? " entry" : " entries"));
    if (byVersion.size() == 1) {
      String v = byVersion.keySet().iterator().next();
      out.println("  code version: " + (v.equals("null") ? "not recorded" : v) + " (all entries)");
    } else {
      out.println("  " + byVersion.size() + " code versions, newest first; calls of the current code never hit "
          + "entries of older versions (joblib4j prune or rm frees them):");
      byVersion.forEach((v, es) -> out.println("    " + (v.equals("null") ? "(not recorded)" : v) + "  " + es.size()
          + (es.size() == 1 ? " entry, " : " entries, ") + Text.size(es.stream().mapToLong(CacheEntry::sizeBytes).sum())
          + ", newest created " + Text.time(es.get(0).created())));
    }
    if (values.isEmpty()) {
      out.println("  arguments: not recorded by these entries");
    }
    values.forEach((name, vs) -> {
      List<String> shown = vs.stream().limit(SHOWN_VALUES).toList();
      out.println("  argument " + name + ": " + (vs.size() == 1 ? "the same in every entry (" + shown.get(0) + ")"
          : vs.size() + " distinct values: " + String.join(", ", shown) + (vs.size() > SHOWN_VALUES ? ", ..." : "")));
    });
  }

  /** How {@code entry} differs from the function's other entries closest to it. */
  private void closest(CacheEntry entry, List<CacheEntry> entries, ObjectNode doc, PrintStream out) {
    doc.put("key", entry.key());
    List<CacheEntry> others = entries.stream().filter(e -> !e.key().equals(entry.key())).toList();
    int best = Integer.MAX_VALUE;
    List<CacheEntry> closest = new ArrayList<>();
    for (CacheEntry o : others) {
      int d = differences(entry, o).size();
      if (d < best) {
        best = d;
        closest.clear();
      }
      if (d == best) {
        closest.add(o);
      }
    }
    ArrayNode list = doc.putArray("closest");
    for (CacheEntry o : closest) {
      ObjectNode n = list.addObject();
      n.put("key", o.key());
      ArrayNode diffs = n.putArray("differences");
      differences(entry, o).forEach(d -> {
        ObjectNode dn = diffs.addObject();
        dn.put("part", d[0]);
        dn.put("this", d[1]);
        dn.put("other", d[2]);
      });
    }
    if (json) {
      return;
    }
    ShowCommand.print(out, entry);
    if (others.isEmpty()) {
      out.println("the only entry of " + function + ": a call with other arguments or other code misses it");
      return;
    }
    out.println("closest of the other " + others.size() + (others.size() == 1 ? " entry" : " entries") + ":");
    for (CacheEntry o : closest.subList(0, Math.min(closest.size(), SHOWN_VALUES))) {
      List<String[]> diffs = differences(entry, o);
      out.println("  " + o.key() + (diffs.isEmpty() ? ": differs in no recorded part (captured values or an ignored "
          + "argument, or an entry that records no arguments)" : ":"));
      for (String[] d : diffs) {
        out.println("    " + d[0] + ": " + d[1] + " here, " + d[2] + " there");
      }
    }
    if (closest.size() > SHOWN_VALUES) {
      out.println("  ... and " + (closest.size() - SHOWN_VALUES) + " more as close");
    }
  }

  /** The recorded parts in which two entries differ: {part, this entry's value, the other's}. */
  static List<String[]> differences(CacheEntry a, CacheEntry b) {
    List<String[]> out = new ArrayList<>();
    if (a.codeVersion() != null && b.codeVersion() != null && !a.codeVersion().equals(b.codeVersion())) {
      out.add(new String[] {"code version", a.codeVersion(), b.codeVersion()});
    }
    Set<String> names = new LinkedHashSet<>(a.arguments().keySet());
    names.addAll(b.arguments().keySet());
    for (String n : names) {
      String x = a.arguments().get(n);
      String y = b.arguments().get(n);
      if (!Objects.equals(x, y) && x != null && y != null) {
        out.add(new String[] {"argument " + n, x, y});
      }
    }
    return out;
  }
}
