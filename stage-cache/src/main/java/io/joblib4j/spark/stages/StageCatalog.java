package io.joblib4j.spark.stages;

import io.joblib4j.CacheLimits;
import io.joblib4j.spark.stages.internal.EntryCatalog;
import io.joblib4j.spark.stages.internal.EntryRecord;
import io.joblib4j.spark.stages.internal.StageLayout;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.Stores;
import io.joblib4j.spi.support.ByteSizes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The stage entries at a location, read from the files alone: list them, see their sizes, clear a
 * stage or all of them, prune, sweep abandoned writes. It does not use Spark, so it works with only
 * joblib4j-engine-api on the class path for a local folder, and with joblib4j-hdfs-store and a
 * Hadoop client for {@code hdfs:}, {@code s3a:} and the other Hadoop file systems (the {@code
 * joblib4j stages} command is built on it).
 *
 * <pre>{@code
 * try (StageCatalog stages = StageCatalog.open("hdfs://namenode:8020/pipeline-cache")) {
 *   for (StageEntry e : stages.list()) {
 *     System.out.println(e.name() + " " + e.key() + " " + e.bytes() + " bytes, " + e.rows() + " rows");
 *   }
 *   stages.prune("50G", 1_000, Duration.ofDays(30));
 * }
 * }</pre>
 *
 * Only the {@code stages/} folder is touched: a {@code Memory} at the same location keeps its
 * entries, and {@code Memory.clear()} leaves the stages alone.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class StageCatalog implements AutoCloseable {
  private final EntryCatalog catalog;
  private final boolean ownsStore;

  private StageCatalog(EntryCatalog catalog, boolean ownsStore) {
    this.catalog = catalog;
    this.ownsStore = ownsStore;
  }

  /**
   * Opens the stage entries at {@code location}: a local path, a {@code file:} URI, or a URI of a
   * store provider on the class path ({@code hdfs:}, {@code s3a:} ... with joblib4j-hdfs-store).
   *
   * @param location the stage cache's location, as given to {@link StageCache#at}
   * @return the catalog; close it to release the store
   * @throws IllegalArgumentException if no store serves the location's scheme
   */
  public static StageCatalog open(String location) {
    return new StageCatalog(new EntryCatalog(Stores.open(location, Map.of())), true);
  }

  /**
   * The stage entries in an open store (not closed by {@link #close()}).
   *
   * @param store the store of the stage cache's location
   * @return the catalog
   */
  public static StageCatalog of(Store store) {
    return new StageCatalog(new EntryCatalog(store), false);
  }

  static StageCatalog of(EntryCatalog catalog) {
    return new StageCatalog(catalog, false);
  }

  /**
   * The location.
   *
   * @return the store's root URI
   */
  public URI location() {
    return catalog.store().location();
  }

  /**
   * Every committed entry of every stage, each stage's newest first.
   *
   * @return the entries
   * @throws UncheckedIOException if the location cannot be read
   */
  public List<StageEntry> list() {
    try {
      return entries(catalog.list());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the stage entries at " + location() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The committed entries of one stage, newest first.
   *
   * @param stage a stage folder ({@code Pipeline.clean-1a2b3c4d5e6f}) or a stage's name ({@code
   *     Pipeline.clean}, every folder of that name)
   * @return its entries
   * @throws UncheckedIOException if the location cannot be read
   */
  public List<StageEntry> list(String stage) {
    try {
      List<EntryCatalog.Listed> out = new ArrayList<>();
      for (String folder : folders(stage)) {
        out.addAll(catalog.list(folder));
      }
      return entries(out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the stage entries at " + location() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The bytes of data of every committed entry.
   *
   * @return the total
   */
  public long bytes() {
    return list().stream().mapToLong(StageEntry::bytes).sum();
  }

  /**
   * Deletes one entry, its record first (no reader finds it after that), then its data.
   *
   * @param entry an entry from {@link #list()}
   * @throws UncheckedIOException if it cannot be deleted
   */
  public void delete(StageEntry entry) {
    try {
      EntryRecord r = catalog.read(entry.stage(), entry.key()).orElse(null);
      catalog.delete(entry.stage(), entry.key(), r == null ? null : r.data());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the stage entry " + entry.stage() + "/" + entry.key() + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * Deletes every entry and data folder of one stage.
   *
   * @param stage a stage folder or a stage's name, as for {@link #list(String)}
   * @return how many entries it had
   * @throws UncheckedIOException if it cannot be deleted
   */
  public int clear(String stage) {
    try {
      int n = 0;
      for (String folder : folders(stage)) {
        n += catalog.clear(folder);
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear the stage " + stage + " at " + location() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Deletes every stage entry at the location (and nothing else there).
   *
   * @return how many entries there were
   * @throws UncheckedIOException if they cannot be deleted
   */
  public int clearAll() {
    try {
      return catalog.clearAll();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear the stages at " + location() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Deletes the entries not read for {@code maxAge}, then the least recently read ones until at most
   * {@code maxEntries} entries of at most {@code maxBytes} remain (joblib's {@code reduce_size}).
   *
   * @param maxBytes a size such as {@code "50G"} or {@code "500M"}, or null for no size limit
   * @param maxEntries the most entries to keep, or 0 for no limit
   * @param maxAge the longest an entry may go unread, or null for no limit ({@link Duration#ZERO}:
   *     every entry not read at this instant)
   * @return the entries deleted
   * @throws IllegalArgumentException if {@code maxBytes} is not a size
   * @throws UncheckedIOException if the location cannot be read or written
   */
  public List<StageEntry> prune(String maxBytes, int maxEntries, Duration maxAge) {
    return prune(new CacheLimits(maxBytes == null ? null : ByteSizes.parse(maxBytes),
        maxEntries > 0 ? (long) maxEntries : null, maxAge), false);
  }

  /**
   * Deletes, least recently read first, what keeps the stage entries within {@code limits}, as {@code
   * Memory.prune} does for Memory's entries; with {@code dryRun} deletes nothing and returns the same
   * entries, so a dry run is exactly what the real run then deletes.
   *
   * @param limits the bytes of data, entries and age to keep to
   * @param dryRun whether only to say what would be deleted
   * @return the entries deleted (or that would be), least recently read first
   * @throws UncheckedIOException if the location cannot be read or written
   */
  public List<StageEntry> prune(CacheLimits limits, boolean dryRun) {
    try {
      return entries(catalog.prune(limits, Instant.now(), Set.of(), dryRun).deleted());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prune the stages at " + location() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Removes what writers that died left behind: data folders no entry names, older than {@code age}
   * (younger ones may belong to a write still running), and the store's abandoned temporaries.
   *
   * @param age how old an abandoned data folder must be; a day is safe for stages that take hours
   * @return how many data folders were removed
   * @throws UncheckedIOException if the location cannot be read or written
   */
  public int sweep(Duration age) {
    try {
      return catalog.sweep(age, Instant.now());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot sweep the stages at " + location() + ": " + e.getMessage(), e);
    }
  }

  /** Closes the store if this catalog opened it. */
  @Override
  public void close() {
    if (ownsStore) {
      catalog.store().close();
    }
  }

  /** The stage folders {@code stage} names (a folder, or a name), among those that are the stage cache's. */
  private List<String> folders(String stage) throws IOException {
    List<String> out = new ArrayList<>();
    for (String folder : catalog.stages()) {
      if (folder.equals(stage) || folder.startsWith(stage + "-") && folder.length() == stage.length() + 13) {
        out.add(folder);
      }
    }
    return out;
  }

  private List<StageEntry> entries(List<EntryCatalog.Listed> listed) {
    List<StageEntry> out = new ArrayList<>();
    String root = location().toString();
    String base = root.endsWith("/") ? root : root + "/";
    for (EntryCatalog.Listed l : listed) {
      EntryRecord r = l.record();
      out.add(new StageEntry(r.stage(), r.name(), r.key(), Instant.parse(r.created()), l.lastAccess(), r.bytes(),
          r.rows(), r.inputs() == null ? List.of() : r.inputs(), base + StageLayout.data(r.stage(), r.data())));
    }
    return out;
  }
}
