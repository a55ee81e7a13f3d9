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
import java.util.HashSet;
import java.util.List;
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
    List<Listed> all = new ArrayList<>(list());
    all.sort(Comparator.comparing(Listed::lastAccess).reversed());
    List<Listed> doomed = new ArrayList<>();
    long bytes = 0;
    int kept = 0;
    for (Listed l : all) {
      boolean tooOld = maxAge != null && !maxAge.isZero() && !maxAge.isNegative()
          && l.lastAccess().isBefore(now.minus(maxAge));
      boolean tooMany = maxEntries > 0 && kept + 1 > maxEntries;
      boolean tooBig = maxBytes > 0 && bytes + l.record().bytes() > maxBytes;
      if (tooOld || tooMany || tooBig) {
        doomed.add(l);
      } else {
        kept++;
        bytes += l.record().bytes();
      }
    }
    for (Listed l : doomed) {
      delete(l.record().stage(), l.record().key(), l.record().data());
    }
    return doomed;
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

  /** {@link #sweep(Duration, Instant)} for one stage folder. */
  public int sweep(String stage, Duration age, Instant now) throws IOException {
    List<StoreFile> attempts = store.children(StageLayout.dataRoot(stage));
    if (attempts.isEmpty()) {
      return 0;
    }
    Set<String> referenced = new HashSet<>();
    for (StoreFile f : store.children(StageLayout.stageDir(stage))) {
      String key = f.path().substring(f.path().lastIndexOf('/') + 1);
      if (f.directory() && StageLayout.isKey(key)) {
        try {
          read(stage, key).ifPresent(r -> referenced.add(r.data()));
        } catch (IOException e) {
          return 0; // an unreadable record may name any folder: sweep nothing of this stage
        }
      }
    }
    int removed = 0;
    for (StoreFile attempt : attempts) {
      String name = attempt.path().substring(attempt.path().lastIndexOf('/') + 1);
      if (!attempt.directory() || referenced.contains(name) || StageLayout.keyOfDataFolder(name).isEmpty()) {
        continue;
      }
      Instant youngest = attempt.lastModified();
      for (StoreFile f : store.list(attempt.path())) {
        youngest = f.lastModified().isAfter(youngest) ? f.lastModified() : youngest;
      }
      if (youngest.isBefore(now.minus(age))) {
        store.delete(attempt.path());
        removed++;
      }
    }
    return removed;
  }
}
