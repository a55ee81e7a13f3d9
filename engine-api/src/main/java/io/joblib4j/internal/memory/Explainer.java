package io.joblib4j.internal.memory;

import io.joblib4j.CacheEntry;
import io.joblib4j.MissExplanation;
import io.joblib4j.MissExplanation.Component;
import io.joblib4j.MissExplanation.Difference;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code memoized.explain(args)}: compares a call's key parts with each stored entry of the function
 * (its code version, captured values' hash and arguments' hashes, as metadata.json records them; an
 * entry of the first layout, without hashes, by its arguments' recorded descriptions) and reports the
 * differences from the closest — the fewest differing parts, then the most recently used.
 */
final class Explainer {
  private Explainer() {}

  static MissExplanation explain(Store store, FunctionIdentity f, CallKeys keys, Object[] args, String call)
      throws IOException {
    String key = keys.key(args);
    String entry = Layout.entry(f.folder(), key);
    if (store.exists(Layout.output(entry))) {
      return new MissExplanation(call, true, Optional.empty(), List.of());
    }
    KeyParts now = keys.parts(args);
    List<String> names = keys.names(args.length);
    CacheEntry best = null;
    List<Difference> bestDiffs = null;
    List<CacheEntry> entries = new ArrayList<>(Catalog.entries(store, f.folder(), false));
    entries.sort(Comparator.comparing(CacheEntry::lastAccess).reversed());
    for (CacheEntry e : entries) {
      MetadataJson.Read r = Catalog.readMetadata(store, e.path());
      if (r == null) {
        continue; // damaged: no key to compare
      }
      List<Difference> diffs = differences(r, f, keys, now, names, args);
      if (bestDiffs == null || diffs.size() < bestDiffs.size()) {
        best = Catalog.withDetails(store, e);
        bestDiffs = diffs;
      }
    }
    if (best == null) {
      String[] recorded = CachedFunction.recordedFunction(store, f.folder());
      if (recorded != null && recorded[0].equals(f.id()) && !recorded[1].equals(f.codeVersion())) {
        return new MissExplanation(call, false, Optional.empty(),
            List.of(new Difference(Component.CODE_VERSION, -1, "code version", recorded[1], f.codeVersion())));
      }
      return new MissExplanation(call, false, Optional.empty(), List.of());
    }
    return new MissExplanation(call, false, Optional.of(best), bestDiffs);
  }

  private static List<Difference> differences(MetadataJson.Read r, FunctionIdentity f, CallKeys keys, KeyParts now,
      List<String> names, Object[] args) {
    List<Difference> out = new ArrayList<>();
    if (!r.metadata().codeVersion().equals(f.codeVersion())) {
      out.add(new Difference(Component.CODE_VERSION, -1, "code version", r.metadata().codeVersion(), f.codeVersion()));
    }
    KeyParts then = r.parts();
    if (then != null && !then.captured().equals(now.captured())) {
      out.add(new Difference(Component.CAPTURED_VALUE, -1, "captured values", then.captured(), now.captured()));
    }
    Map<String, String> described = r.metadata().inputArguments();
    for (int i = 0; i < args.length; i++) {
      if (keys.ignored(i)) {
        continue;
      }
      String stored = described.get(names.get(i));
      String current = CallKeys.shortly(args[i]);
      boolean differs;
      if (then != null && then.arguments().size() == args.length && then.arguments().get(i) != null) {
        differs = !then.arguments().get(i).equals(now.arguments().get(i));
      } else {
        differs = stored == null || !stored.equals(current); // the first layout: descriptions only
      }
      if (differs) {
        out.add(new Difference(Component.ARGUMENT, i, names.get(i), stored, current));
      }
    }
    if (then != null && then.arguments().size() != args.length) {
      out.add(new Difference(Component.ARGUMENT, -1, "arity", String.valueOf(then.arguments().size()),
          String.valueOf(args.length)));
    }
    return out;
  }
}
