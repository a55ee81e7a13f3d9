package io.joblib4j.spark.stages.internal;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.Warnings;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The stage entries of a location, read from the layout alone ({@link StageLayout}, {@link
 * EntryRecord}) through the {@link Store} SPI: listing, deleting, pruning and sweeping. No Spark
 * here, so the command line can use it with only a Hadoop client (or nothing, for a local path).
 */
public final class EntryCatalog {
  /** Abandoned data attempts younger than this may belong to a writer still at work. */
  public static final Duration DEFAULT_SWEEP_AGE = Duration.ofHours(24);
  /** The store's own temporaries (entry records being published) are tiny and quick: Memory's age. */
  private static final Duration STORE_SWEEP_AGE = Duration.ofHours(1);

  private final Store store;

  public EntryCatalog(Store store) {
    this.store = store;
  }

  public Store store() {
    return store;
  }

  /**
   * One committed entry.
   *
   * @param record its entry.json
   * @param lastAccess when it was last read (or published)
   */
  public record Listed(EntryRecord record, Instant lastAccess) {}

  /** The stage folders there are. */
  public List<String> stages() throws IOException {
    List<String> out = new ArrayList<>();
    for (StoreFile f : store.children(StageLayout.ROOT)) {
      String name = f.path().substring(f.path().lastIndexOf('/') + 1);
      if (f.directory() && StageLayout.isStageFolder(name)) {
        out.add(name);
      }
    }
    out.sort(null);
    return out;
  }

  /** Every committed entry of every stage. */
  public List<Listed> list() throws IOException {
    List<Listed> out = new ArrayList<>();
    for (String stage : stages()) {
      out.addAll(list(stage));
    }
    return out;
  }

  /** The committed entries of one stage folder, newest first. An unreadable record is warned about and skipped. */
  public List<Listed> list(String stage) throws IOException {
    List<Listed> out = new ArrayList<>();
    for (StoreFile f : store.children(StageLayout.stageDir(stage))) {
      String key = f.path().substring(f.path().lastIndexOf('/') + 1);
      if (!f.directory() || !StageLayout.isKey(key)) {
        continue;
      }
      try {
        read(stage, key).ifPresent(r -> out.add(new Listed(r, f.lastModified())));
      } catch (IOException e) {
        Warnings.warn(EntryCatalog.class, "skipping the stage entry " + StageLayout.entry(stage, key) + " in "
            + store.location() + ": " + e.getMessage());
      }
    }
    out.sort(Comparator.comparing((Listed l) -> l.record().created()).reversed());
    return out;
  }

  /** The committed entry {@code stage/key}, if there is one; throws if its record is damaged. */
  public Optional<EntryRecord> read(String stage, String key) throws IOException {
    Optional<InputStream> in = store.open(StageLayout.entryFile(stage, key));
    if (in.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes;
    try (InputStream s = in.get()) {
      bytes = s.readAllBytes();
    }
    EntryRecord r = EntryRecord.parse(bytes);
    if (!r.key().equals(key) || !stage.equals(r.stage())) {
      throw new IOException("the record of " + StageLayout.entry(stage, key) + " belongs to " + r.stage() + "/" + r.key());
    }
    return Optional.of(r);
  }

  /** Deletes an entry: its record first (readers stop seeing it at once), then its data. */
  public void delete(String stage, String key, String dataFolder) throws IOException {
    store.delete(StageLayout.entry(stage, key));
    if (dataFolder != null) {
      store.delete(StageLayout.data(stage, dataFolder));
    }
  }

  /** Deletes a stage folder with all its entries and data; returns the entries it had. */
  public int clear(String stage) throws IOException {
    int n = list(stage).size();
    store.delete(StageLayout.stageDir(stage));
    return n;
  }

  /** Deletes every stage entry and data folder (and nothing else at the location). */
  public int clearAll() throws IOException {
    int n = 0;
    for (String stage : stages()) {
      n += clear(stage);
    }
    store.delete(StageLayout.ROOT);
    return n;
  }

  /**
   * Deletes entries last read before {@code now - maxAge}, then the least recently read ones until
   * at most {@code maxEntries} entries of at most {@code maxBytes} bytes remain (a limit {@code <= 0}
   * or null is no limit). Returns the entries deleted.
   */
  public List<Listed> prune(long maxBytes, int maxEntries, Duration maxAge, Instant now) throws IOException {
    return prune(maxBytes, maxEntries, maxAge, now, Set.of()).deleted();
  }

  /**
   * What a prune did.
   *
   * @param deleted the entries deleted
   * @param keptEntries how many entries it left
   * @param keptBytes the data bytes of those it left (0 when it pruned by no size limit: not read then)
   */
  public record Pruned(List<Listed> deleted, int keptEntries, long keptBytes) {}

  /**
   * {@link #prune(long, int, Duration, Instant)}, keeping the entries named in {@code keep} ({@code
   * stage/key}, an entry just published) whatever their age and counting them first. Records are
   * read only where needed: every entry's when there is a size limit (its bytes), otherwise only the
   * deleted ones' (their data folders); the rest is one listing per stage.
   */
  public Pruned prune(long maxBytes, int maxEntries, Duration maxAge, Instant now, Set<String> keep)
      throws IOException {
    List<Present> all = new ArrayList<>();
    for (String stage : stages()) {
      for (StoreFile f : store.children(StageLayout.stageDir(stage))) {
        String key = f.path().substring(f.path().lastIndexOf('/') + 1);
        if (f.directory() && StageLayout.isKey(key)) {
          all.add(new Present(stage, key, f.lastModified(), keep.contains(stage + "/" + key)));
        }
      }
    }
    all.sort(Comparator.comparing(Present::kept).thenComparing(Present::lastAccess).reversed());
    List<Listed> doomed = new ArrayList<>();
    long bytes = 0;
    int kept = 0;
    for (Present p : all) {
      EntryRecord r = null;
      if (maxBytes > 0) {
        r = readOrWarn(p);
        if (r == null) {
          continue; // damaged: left alone, as list() leaves it out
        }
      }
      boolean tooOld = !p.kept() && maxAge != null && !maxAge.isZero() && !maxAge.isNegative()
          && p.lastAccess().isBefore(now.minus(maxAge));
      boolean tooMany = maxEntries > 0 && kept + 1 > maxEntries;
      boolean tooBig = r != null && bytes + r.bytes() > maxBytes;
      if (tooOld || tooMany || tooBig) {
        r = r != null ? r : readOrWarn(p);
        if (r != null) {
          doomed.add(new Listed(r, p.lastAccess()));
        }
      } else {
        kept++;
        bytes += r == null ? 0 : r.bytes();
      }
    }
    for (Listed l : doomed) {
      delete(l.record().stage(), l.record().key(), l.record().data());
    }
    return new Pruned(doomed, kept, bytes);
  }

  /** An entry's folder as listed: when it was last read, and whether the prune must keep it. */
  private record Present(String stage, String key, Instant lastAccess, boolean kept) {}

  private EntryRecord readOrWarn(Present p) {
    try {
      return read(p.stage(), p.key()).orElse(null);
    } catch (IOException e) {
      Warnings.warn(EntryCatalog.class, "skipping the stage entry " + StageLayout.entry(p.stage(), p.key()) + " in "
          + store.location() + ": " + e.getMessage());
      return null;
    }
  }

  /**
   * Removes data folders no committed entry names whose newest file is older than {@code age}
   * (attempts of writers that died or lost the race and could not clean up), and the store's own
   * abandoned temporaries. Returns the data folders removed.
   */
  public int sweep(Duration age, Instant now) throws IOException {
    int removed = 0;
    for (String stage : stages()) {
      removed += sweep(stage, age, now);
    }
    store.sweep(STORE_SWEEP_AGE);
    return removed;
  }

  /**
   * {@link #sweep(Duration, Instant)} for one stage folder: two listings, and a record read only for
   * a key with several old data folders. A data folder is named {@code <key>.<attempt>} and an
   * entry names one folder of its own key, so the only folder of a key with an entry is that
   * entry's (or, if the entry lost its data, harmless to keep until the entry is found damaged and
   * deleted), and every folder of a key without an entry is abandoned.
   */
  public int sweep(String stage, Duration age, Instant now) throws IOException {
    List<StoreFile> attempts = store.children(StageLayout.dataRoot(stage));
    if (attempts.isEmpty()) {
      return 0;
    }
    Instant cutoff = now.minus(age);
    Map<String, Integer> foldersPerKey = new HashMap<>();
    for (StoreFile a : attempts) {
      StageLayout.keyOfDataFolder(name(a)).ifPresent(k -> foldersPerKey.merge(k, 1, Integer::sum));
    }
    Set<String> keysWithEntries = new HashSet<>();
    for (StoreFile f : store.children(StageLayout.stageDir(stage))) {
      if (f.directory() && StageLayout.isKey(name(f))) {
        keysWithEntries.add(name(f));
      }
    }
    Map<String, Optional<String>> referenced = new HashMap<>(); // key -> the data folder its entry names
    int removed = 0;
    for (StoreFile attempt : attempts) {
      String name = name(attempt);
      Optional<String> key = StageLayout.keyOfDataFolder(name);
      if (!attempt.directory() || key.isEmpty() || !attempt.lastModified().isBefore(cutoff)) {
        continue; // not ours, or young: a writer may be at work in it
      }
      if (keysWithEntries.contains(key.get())) {
        if (foldersPerKey.get(key.get()) == 1) {
          continue;
        }
        Optional<String> named = referenced.computeIfAbsent(key.get(), k -> dataFolderOf(stage, k));
        if (named == null || named.isEmpty() || named.get().equals(name)) {
          continue; // the entry's own folder, or a record that cannot be read and may name any of them
        }
      }
      Instant youngest = attempt.lastModified();
      for (StoreFile f : store.list(attempt.path())) {
        youngest = f.lastModified().isAfter(youngest) ? f.lastModified() : youngest;
      }
      if (youngest.isBefore(cutoff)) {
        store.delete(attempt.path());
        removed++;
      }
    }
    return removed;
  }

  /** The data folder the entry of {@code key} names; empty if it has none now; null if its record cannot be read. */
  private Optional<String> dataFolderOf(String stage, String key) {
    try {
      return read(stage, key).map(EntryRecord::data);
    } catch (IOException e) {
      return null;
    }
  }

  private static String name(StoreFile f) {
    return f.path().substring(f.path().lastIndexOf('/') + 1);
  }
}
