package io.joblib4j.internal.memory;

import io.joblib4j.CacheEntry;
import io.joblib4j.MissExplanation.Component;
import io.joblib4j.MissExplanation.Difference;
import io.joblib4j.MissExplanation;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.KeyParts;
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
    CallHashes now = keys.parts(args);
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

  /** The call's key parts and the entry's, as {@link KeyParts} compares them. */
  private static List<Difference> differences(MetadataJson.Read r, FunctionIdentity f, CallKeys keys, CallHashes now,
      List<String> names, Object[] args) {
    KeyParts current = new KeyParts().add(Component.CODE_VERSION, -1, "code version", f.codeVersion(), f.codeVersion());
    KeyParts stored = new KeyParts()
        .add(Component.CODE_VERSION, -1, "code version", r.metadata().codeVersion(), r.metadata().codeVersion());
    CallHashes then = r.parts();
    if (then != null) { // the first layout recorded no hashes: its captured values cannot be compared
      current.add(Component.CAPTURED_VALUE, -1, "captured values", now.captured(), now.captured());
      stored.add(Component.CAPTURED_VALUE, -1, "captured values", then.captured(), then.captured());
    }
    Map<String, String> described = r.metadata().inputArguments();
    boolean hashed = then != null && then.arguments().size() == args.length;
    for (int i = 0; i < args.length; i++) {
      if (keys.ignored(i)) {
        continue;
      }
      // an argument whose hash was recorded compares by hash; one of the first layout by its description
      boolean byHash = hashed && then.arguments().get(i) != null;
      current.add(Component.ARGUMENT, i, names.get(i), byHash ? now.arguments().get(i) : null, CallKeys.shortly(args[i]));
      stored.add(Component.ARGUMENT, i, names.get(i), byHash ? then.arguments().get(i) : null, described.get(names.get(i)));
    }
    List<Difference> out = new ArrayList<>(KeyParts.differences(current, stored));
    if (then != null && then.arguments().size() != args.length) {
      out.add(new Difference(Component.ARGUMENT, -1, "arity", String.valueOf(then.arguments().size()),
          String.valueOf(args.length)));
    }
    return out;
  }
}
