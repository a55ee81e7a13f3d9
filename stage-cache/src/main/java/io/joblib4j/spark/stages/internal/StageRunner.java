package io.joblib4j.spark.stages.internal;

import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;

import io.joblib4j.Joblib;
import io.joblib4j.MissExplanation;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.spark.stages.StageKeyException;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.support.Warnings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * The stage cache's protocol, for one call of a cached stage:
 *
 * <ol>
 * *   <li>The key ({@link StageKeys}, part by part in a {@link StageKey}): the stage function's fingerprint, the Spark version, the SQL
 *       settings that change results, how the output is written, and each argument (a Dataset by
 *       {@link PlanKeys}, anything else by {@code Joblib.hash}).
 *   <li>A hit is a committed entry ({@code entry.json} published through the {@link Store}) whose
 *       data files are all there with the sizes it lists, and no others: then the stage function is
 *       not called and the result is the data read with the stored schema.
 *   <li>A miss computes the stage (its plain Delta inputs read at the keyed versions, {@link
 *       DeltaTables}), writes its result into a data folder of its own ({@code <key>.<attempt>}),
 *       counts its rows on the way ({@link Observation}), reads it back (Spark's listing of the
 *       folder for that read is the record's list of files), and publishes the record. The store's
 *       publish is atomic and create-if-absent (a NameNode rename on HDFS, an exclusive create of a
 *       commit marker on object stores): of writers racing, the first wins and the others delete
 *       their data and read the winner's. The result is the read of the written files, so it is the
 *       same Dataset a later hit gives. Sweeping and pruning follow when due ({@link Maintenance}).
 * </ol>
 *
 * A writer that dies leaves a data folder no record names: nothing reads it, and {@link
 * EntryCatalog#sweep} removes it once it is older than the sweep age.
 */
public final class StageRunner {
  /** Test hooks: called after the data is written (before publishing), and after publishing. */
  static volatile Runnable afterWrite = () -> { };
  static volatile Runnable afterPublish = () -> { };

  private final SparkSession spark;
  private final Store store;
  private final EntryCatalog catalog;
  private final StageSettings settings;
  private final Maintenance maintenance;
  private final StageKeys keys;
  private final StageExplainer explainer;

  public StageRunner(SparkSession spark, Store store, StageSettings settings) {
    this.spark = spark;
    this.store = store;
    this.catalog = new EntryCatalog(store);
    this.settings = settings;
    this.maintenance = new Maintenance(catalog, settings);
    this.keys = new StageKeys(spark, settings);
    this.explainer = new StageExplainer(keys, catalog, store);
  }

  public EntryCatalog catalog() {
    return catalog;
  }

  public StageSettings settings() {
    return settings;
  }

  // ---- the call -----------------------------------------------------------------------------

  public Dataset<Row> call(StageSpec spec, Object[] args) {
    StageKeys.Keyed k = keys.keyOf(spec, args);
    if (!spec.refresh()) {
      Optional<Dataset<Row>> hit = hit(k, spec);
      if (hit.isPresent()) {
        return hit.get();
      }
    }
    return computeAndPublish(k, spec, args);
  }

  /**
   * The data of the committed, whole entry of this key, or empty; a damaged or expired one is
   * deleted. The data is read first: Spark lists its folder for the read, and that listing is what
   * is checked against the record, so a hit lists the folder once.
   */
  private Optional<Dataset<Row>> hit(StageKeys.Keyed k, StageSpec spec) {
    EntryRecord r;
    try {
      Optional<EntryRecord> found = catalog.read(k.stage(), k.key());
      if (found.isEmpty()) {
        return Optional.empty();
      }
      r = found.get();
    } catch (IOException | RuntimeException e) {
      Warnings.warn(StageRunner.class, "the stage entry " + StageLayout.entry(k.stage(), k.key()) + " in "
          + store.location() + " cannot be read (" + e.getMessage() + "); it is deleted and " + k.name()
          + " computed again");
      deleteQuietly(k.stage(), k.key(), null);
      return Optional.empty();
    }
    Instant now = settings.clock().instant();
    if (spec.expiresAfter() != null && Instant.parse(r.created()).plus(spec.expiresAfter()).isBefore(now)) {
      deleteQuietly(k.stage(), k.key(), r.data());
      return Optional.empty();
    }
    Dataset<Row> data = null;
    String problem;
    try {
      data = read(r);
      problem = verify(r, data);
    } catch (RuntimeException e) {
      problem = "its data cannot be read: " + e.getMessage();
    }
    if (problem != null) {
      Warnings.warn(StageRunner.class, "the stage entry " + StageLayout.entry(k.stage(), k.key()) + " in "
          + store.location() + " is damaged (" + problem + "); it is deleted and " + k.name() + " computed again");
      deleteQuietly(k.stage(), k.key(), r.data());
      return Optional.empty();
    }
    try {
      store.touch(StageLayout.entry(k.stage(), k.key()), now);
    } catch (IOException e) {
      // the access time only orders pruning
    }
    return Optional.of(data);
  }

  /**
   * Null if the files Spark found for the entry's data are exactly those its record lists, with their
   * sizes, else what is wrong. This is also the schema check: Spark writes each data file's schema
   * into the file from the Dataset whose schema the record stores, file names carry the writing job's
   * unique id, and a file that is not one of those written (added, removed, cut short, extended,
   * written over with other content of another size) changes this set. What it cannot see is a file
   * written over in place, under its own name, with other content of exactly the same size (damaged
   * bytes then fail the query on the footer; another valid file of that size would be read); nothing
   * of joblib4j writes there, and damage below the file system is what HDFS's block checksums are for.
   */
  private static String verify(EntryRecord r, Dataset<Row> data) {
    Map<String, Long> found = new HashMap<>();
    for (EntryRecord.DataFile f : filesOf(data, r.data())) {
      found.put(f.path(), f.bytes());
    }
    for (EntryRecord.DataFile f : r.files()) {
      Long size = found.remove(f.path());
      if (size == null) {
        return "its data file " + f.path() + " is missing";
      }
      if (size != f.bytes()) {
        return "its data file " + f.path() + " is " + size + " bytes, not " + f.bytes();
      }
    }
    if (!found.isEmpty()) {
      return "its data folder holds files its record does not list: " + found.keySet();
    }
    return null;
  }

  /**
   * The data files of a read of a data folder, relative to it, sorted: what Spark listed when the
   * read was made (the files it reads), so that neither a miss nor a hit lists the folder again.
   */
  static List<EntryRecord.DataFile> filesOf(Dataset<Row> data, String dataFolder) {
    List<EntryRecord.DataFile> out = new ArrayList<>();
    String marker = "/" + dataFolder + "/";
    data.queryExecution().analyzed().foreach(node -> {
      if (node instanceof LogicalRelation lr && lr.relation() instanceof HadoopFsRelation fs
          && fs.location() instanceof PartitioningAwareFileIndex index) {
        for (FileStatus f : ScalaCollections.asJava(index.allFiles())) {
          String path = f.getPath().toString();
          int at = path.indexOf(marker);
          if (at < 0) {
            throw new IllegalStateException("the file " + path + " is not in the data folder " + dataFolder);
          }
          out.add(new EntryRecord.DataFile(path.substring(at + marker.length()), f.getLen()));
        }
      }
      return null;
    });
    out.sort((a, b) -> a.path().compareTo(b.path()));
    return out;
  }

  private Dataset<Row> computeAndPublish(StageKeys.Keyed k, StageSpec spec, Object[] args) {
    Dataset<?> result = invoke(spec, atKeyedVersions(k, args), k.name());
    String attempt = UUID.randomUUID().toString();
    String dataFolder = StageLayout.dataFolder(k.key(), attempt);
    String dataRel = StageLayout.data(k.stage(), dataFolder);
    boolean keep = false;
    try {
      Observation rows = new Observation("joblib4j-stage-" + attempt);
      DataFrameWriter<?> writer = result.observe(rows, count(lit(1)).as("rows")).write()
          .format(settings.format()).mode(SaveMode.ErrorIfExists);
      String codec = spec.compression() != null ? spec.compression() : settings.compression();
      if (codec != null) {
        writer = writer.option("compression", codec);
      }
      if (!spec.partitionBy().isEmpty()) {
        writer = writer.partitionBy(spec.partitionBy().toArray(new String[0]));
      }
      writer.save(uri(dataRel));
      afterWrite.run();
      long rowCount = rowsOf(rows);
      Map<String, Object> storage = new LinkedHashMap<>();
      storage.put("format", settings.format());
      storage.put("compression", codec);
      storage.put("partitionBy", spec.partitionBy());
      String schema = result.schema().json();
      Dataset<Row> written = read(dataRel, settings.format(), schema);
      List<EntryRecord.DataFile> files = filesOf(written, dataFolder);
      long bytes = files.stream().mapToLong(EntryRecord.DataFile::bytes).sum();
      EntryRecord record = new EntryRecord(EntryRecord.FORMAT, k.stage(), k.name(), k.identity(), k.key(),
          settings.clock().instant().toString(), dataFolder, storage, schema, rowCount, bytes, files,
          k.parts().hashes(), k.parts().described(), k.parts().inputs(), spark.version());
      String entry = StageLayout.entry(k.stage(), k.key());
      if (spec.refresh()) {
        store.delete(entry); // its data stays until swept: another application may be reading it
      }
      Store.Publication p;
      try {
        p = store.publish(entry, List.of(EntryFile.of(StageLayout.ENTRY_FILE, record.toJson())));
      } catch (IOException e) {
        // the data is whole; only the record could not be stored (e.g. another writer's claim on an
        // object store): the result is returned uncached, and its folder left to the sweep
        Warnings.warn(StageRunner.class, "cannot publish the stage entry " + entry + " in " + store.location() + " ("
            + e.getMessage() + "); " + k.name() + " returns its result uncached this time");
        keep = true;
        return written;
      }
      if (p == Store.Publication.PUBLISHED) {
        keep = true;
        afterPublish.run();
        maintenance.afterPublish(record);
        return written;
      }
      // another writer published this key first: use its entry (the same content) and drop ours
      EntryRecord winner = catalog.read(k.stage(), k.key()).orElseThrow(() -> new IOException("the entry "
          + entry + " was published by another writer and deleted since"));
      return read(winner);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot store the stage " + k.name() + " in " + store.location() + ": "
          + e.getMessage(), e);
    } finally {
      if (!keep) {
        deleteDataQuietly(dataRel);
      }
    }
  }

  /** The arguments, each plain Delta read in them pinned at the version the key holds. */
  private static Object[] atKeyedVersions(StageKeys.Keyed k, Object[] args) {
    if (k.deltaPins().isEmpty()) {
      return args;
    }
    Object[] out = args.clone();
    for (Map.Entry<Integer, Map<String, Long>> e : k.deltaPins().entrySet()) {
      out[e.getKey()] = DeltaTables.readAt((Dataset<?>) args[e.getKey()], e.getValue());
    }
    return out;
  }

  /** The rows the write counted: its metrics arrive with the write's end, so this does not wait long. */
  private static long rowsOf(Observation rows) throws IOException {
    try {
      Object n = rows.getAsJava().get("rows");
      return n instanceof Number num ? num.longValue() : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while counting the rows written");
    }
  }

  private Dataset<?> invoke(StageSpec spec, Object[] args, String name) {
    Object out = switch (spec.arity()) {
      case 1 -> ((Fn1<Object, ?>) cast(spec.fn())).apply(args[0]);
      case 2 -> ((Fn2<Object, Object, ?>) cast(spec.fn())).apply(args[0], args[1]);
      case 3 -> ((Fn3<Object, Object, Object, ?>) cast(spec.fn())).apply(args[0], args[1], args[2]);
      case 4 -> ((Fn4<Object, Object, Object, Object, ?>) cast(spec.fn())).apply(args[0], args[1], args[2], args[3]);
      default -> throw new IllegalStateException("arity " + spec.arity());
    };
    if (!(out instanceof Dataset<?> ds)) {
      throw new IllegalStateException("the stage " + name + " returned " + (out == null ? "null"
          : "a " + out.getClass().getName()) + ", not a Dataset");
    }
    if (ds.isStreaming()) {
      throw new StageKeyException("the stage " + name + " returned a streaming Dataset, which cannot be stored as a"
          + " table; cache stages of batch Datasets");
    }
    return ds;
  }

  @SuppressWarnings("unchecked")
  private static <T> T cast(Object o) {
    return (T) o;
  }

  /** The entry's data, read with its stored schema. */
  public Dataset<Row> read(EntryRecord r) {
    String format = r.storage() != null && r.storage().get("format") != null ? r.storage().get("format").toString()
        : "parquet";
    return read(StageLayout.data(r.stage(), r.data()), format, r.schema());
  }

  private Dataset<Row> read(String dataRel, String format, String schema) {
    return spark.read().schema((StructType) DataType.fromJson(schema)).format(format).load(uri(dataRel));
  }

  /** The Hadoop URI of a store path. */
  public String uri(String relative) {
    String root = store.location().toString();
    return (root.endsWith("/") ? root : root + "/") + relative;
  }


  /** The key of a call ({@link StageKeys#keyOf}). */
  StageKeys.Keyed keyOf(StageSpec spec, Object[] args) {
    return keys.keyOf(spec, args);
  }

  // ---- explain ------------------------------------------------------------------------------

  /** {@link StageExplainer#explain}. */
  public MissExplanation explain(StageSpec spec, Object[] args) {
    return explainer.explain(spec, args);
  }

  // ---- housekeeping -------------------------------------------------------------------------

  private void deleteQuietly(String stage, String key, String dataFolder) {
    try {
      catalog.delete(stage, key, dataFolder);
    } catch (IOException | RuntimeException e) {
      // a later sweep or prune removes it
    }
  }

  private void deleteDataQuietly(String dataRel) {
    try {
      store.delete(dataRel);
    } catch (IOException | RuntimeException e) {
      // the sweep removes it once old
    }
  }

}
