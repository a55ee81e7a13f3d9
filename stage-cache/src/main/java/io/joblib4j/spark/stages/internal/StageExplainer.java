package io.joblib4j.spark.stages.internal;

import io.joblib4j.CacheEntry;
import io.joblib4j.MissExplanation;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.KeyParts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;

/** A stage call's {@code explain}: whether it would hit, and which key parts differ from the latest entry. */
final class StageExplainer {
  private final StageKeys keys;
  private final EntryCatalog catalog;
  private final Store store;

  StageExplainer(StageKeys keys, EntryCatalog catalog, Store store) {
    this.keys = keys;
    this.catalog = catalog;
    this.store = store;
  }

  /**
   * Whether this call would read a stored entry, and if not, which parts of its key differ from the
   * stage's latest entry: the same typed answer, and the same comparison ({@link KeyParts}), as
   * Memory's {@code explain}.
   */
  MissExplanation explain(StageSpec spec, Object[] args) {
    StageKeys.Keyed k = keys.keyOf(spec, args);
    List<EntryCatalog.Listed> entries;
    try {
      entries = catalog.list(k.stage());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the entries of " + k.name() + " at " + store.location() + ": "
          + e.getMessage(), e);
    }
    String call = k.name() + "(" + described(args) + ")";
    for (EntryCatalog.Listed l : entries) {
      if (l.record().key().equals(k.key())) {
        return new MissExplanation(call, true, Optional.empty(), List.of());
      }
    }
    if (entries.isEmpty()) {
      return new MissExplanation(call, false, Optional.empty(), List.of());
    }
    EntryCatalog.Listed latest = entries.get(0);
    EntryRecord r = latest.record();
    KeyParts then = KeyParts.of(MissExplanation.Component.KEY_PART, r.components() == null ? Map.of() : r.components(),
        r.described() == null ? Map.of() : r.described());
    return new MissExplanation(call, false, Optional.of(asCacheEntry(latest)),
        KeyParts.differences(k.parts().parts(), then));
  }

  /** A stage entry as {@link MissExplanation#closest()} names entries. */
  private CacheEntry asCacheEntry(EntryCatalog.Listed l) {
    EntryRecord r = l.record();
    Instant created = Instant.parse(r.created());
    return new CacheEntry(r.name(), r.stage(), r.key(), null, r.described(), r.bytes(), created,
        l.lastAccess().isBefore(created) ? created : l.lastAccess(), null, StageLayout.entry(r.stage(), r.key()));
  }

  private static String described(Object[] args) {
    List<String> out = new ArrayList<>();
    for (Object a : args) {
      out.add(a instanceof Dataset<?> ? "Dataset" : a instanceof SparkSession ? "SparkSession" : KeyParts.describe(a));
    }
    return String.join(", ", out);
  }
}
