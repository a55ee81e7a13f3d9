package io.joblib4j.spark.stages.internal;

import io.joblib4j.CacheLimits;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.Warnings;
import io.joblib4j.spi.upkeep.Holdings;
import io.joblib4j.spi.upkeep.PrunePlanner;
import io.joblib4j.spi.upkeep.Sweep;
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

  /** The stage folders there are: named as stages are, and holding an entry's record ({@link Holdings}). */
  public List<String> stages() throws IOException {
    List<String> out = new ArrayList<>();
    for (StoreFile f : store.children(StageLayout.ROOT)) {
      String name = f.path().substring(f.path().lastIndexOf('/') + 1);
      if (f.directory() && Holdings.isStageFolder(store, name)) {
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

  /**
   * Deletes a stage's entries and data attempts, and then its folders if nothing else is left in
   * them; returns the entries it had. What is not the stage cache's ({@link Holdings}) stays.
   */
  public int clear(String stage) throws IOException {
    List<Listed> entries = list(stage);
    for (Listed l : entries) {
      delete(stage, l.record().key(), l.record().data());
    }
    for (StoreFile attempt : store.children(StageLayout.dataRoot(stage))) {
      if (attempt.directory() && StageLayout.keyOfDataFolder(name(attempt)).isPresent()) {
        store.delete(attempt.path()); // an attempt no entry names, in a stage folder of ours
      }
    }
    deleteIfEmpty(StageLayout.dataRoot(stage));
    deleteIfEmpty(StageLayout.stageDir(stage));
    StageLimits.forget(this);
    return entries.size();
  }

  /** Deletes every stage's entries and data (and nothing else at the location). */
  public int clearAll() throws IOException {
    int n = 0;
    for (String stage : stages()) {
      n += clear(stage);
    }
    deleteIfEmpty(StageLayout.ROOT);
    return n;
  }

  /** Removes an empty folder of the stage cache's; one that holds anything (the user's, a link) stays. */
  private void deleteIfEmpty(String folder) throws IOException {
    store.deleteIfEmpty(folder);
  }

  /**
   * What a prune did, or with a dry run would do.
   *
   * @param deleted the entries deleted (or that would be), least recently read first
   * @param keptEntries how many entries it left
   * @param keptBytes the data bytes of those it left
   */
  public record Pruned(List<Listed> deleted, int keptEntries, long keptBytes) {}

  /**
   * Deletes what {@link PrunePlanner} chooses for {@code limits}: least recently read first, never an
   * entry named in {@code keep} ({@code stage/key}, an entry just published). With {@code dryRun} it
   * deletes nothing and returns the same plan, so a dry run reports what the real run deletes.
   */
  public Pruned prune(CacheLimits limits, Instant now, Set<String> keep, boolean dryRun) throws IOException {
    List<PrunePlanner.Candidate<Listed>> candidates = candidates(keep);
    List<Listed> doomed = PrunePlanner.plan(candidates, limits, now);
    long total = candidates.stream().mapToLong(PrunePlanner.Candidate::bytes).sum();
    long freed = 0;
    for (Listed l : doomed) {
      if (!dryRun) {
        delete(l);
      }
      freed += l.record().bytes();
    }
    if (!dryRun) {
      StageLimits.forget(this);
    }
    return new Pruned(doomed, candidates.size() - doomed.size(), total - freed);
  }

  /** Every entry as the planner's candidate, least recently read first by its last access; those in {@code keep} pinned. */
  List<PrunePlanner.Candidate<Listed>> candidates(Set<String> keep) throws IOException {
    List<PrunePlanner.Candidate<Listed>> candidates = new ArrayList<>();
    for (Listed l : list()) {
      EntryRecord r = l.record();
      candidates.add(new PrunePlanner.Candidate<>(l, StageLayout.entry(r.stage(), r.key()), r.bytes(), l.lastAccess(),
          keep.contains(r.stage() + "/" + r.key())));
    }
    return candidates;
  }

  /** Deletes a listed entry and its data. */
  void delete(Listed l) throws IOException {
    delete(l.record().stage(), l.record().key(), l.record().data());
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
    Sweep.temporaries(store); // the store's own temporaries (records being published): Memory's sweep
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
