package io.joblib4j.spark.stages.internal;

import io.joblib4j.FunctionFingerprint;
import io.joblib4j.Joblib;
import io.joblib4j.spark.stages.StageKeyException;
import io.joblib4j.spi.support.Warnings;
import io.joblib4j.spi.upkeep.KeyParts;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;

/**
 * The key of a stage call, part by part ({@link StageKey}): the stage function's fingerprint, the
 * Spark version, the settings that change what a plan computes, the output's format, and each
 * argument (a Dataset by its plan, inputs and code, {@link PlanKeys}; a plain value by its hash).
 */
final class StageKeys {
  /** Settings that change what a plan computes; {@code spark.sql.legacy.*} ones that are set join them. */
  static final List<String> RESULT_SETTINGS = List.of("spark.sql.session.timeZone", "spark.sql.ansi.enabled",
      "spark.sql.caseSensitive", "spark.sql.storeAssignmentPolicy", "spark.sql.timestampType",
      "spark.sql.mapKeyDedupPolicy", "spark.sql.decimalOperations.allowPrecisionLoss",
      "spark.sql.parquet.binaryAsString", "spark.sql.parquet.int96AsTimestamp",
      "spark.sql.parquet.datetimeRebaseModeInRead", "spark.sql.parquet.int96RebaseModeInRead",
      "spark.sql.files.ignoreCorruptFiles", "spark.sql.files.ignoreMissingFiles",
      "spark.sql.files.ignoreInvalidPartitionPaths", "spark.sql.sources.partitionColumnTypeInference.enabled");
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private final SparkSession spark;
  private final StageSettings settings;

  StageKeys(SparkSession spark, StageSettings settings) {
    this.spark = spark;
    this.settings = settings;
  }

  /**
   * The key of a call, and the stage folder it goes in.
   *
   * @param deltaPins per Dataset argument (by index), the plain Delta reads it keyed: location to version
   */
  record Keyed(String stage, String name, String identity, StageKey parts, String key,
      Map<Integer, Map<String, Long>> deltaPins) {}

  Keyed keyOf(StageSpec spec, Object[] args) {
    if (args.length != spec.arity()) {
      throw new IllegalArgumentException("the stage takes " + spec.arity() + " arguments, got " + args.length);
    }
    FunctionFingerprint f;
    try {
      f = spec.fingerprint();
    } catch (IllegalArgumentException e) {
      throw new StageKeyException("the stage function cannot be keyed: " + e.getMessage());
    }
    if (!f.codeKnown() && WARNED.add(f.identity())) {
      Warnings.warn(StageKeys.class, "cannot read the bytecode of " + f.identity() + ": its stage entries will not"
          + " be invalidated when its code changes. Define it in a class compiled to a jar or folder on the"
          + " class path, or clear the stage by hand after changing it.");
    }
    StageKey parts = new StageKey();
    parts.add("function", f.hash(), f.name() + " (code " + f.codeVersion() + ", captured values " + f.capturedHash() + ")");
    parts.add("spark", Joblib.hash(spark.version()), "Spark " + spark.version());
    TreeMap<String, String> conf = resultSettings();
    parts.add("settings", Joblib.hash(conf), conf.toString());
    List<Object> output = List.of(settings.format(), spec.partitionBy());
    parts.add("output", Joblib.hash(output), settings.format() + (spec.partitionBy().isEmpty() ? ""
        : " partitioned by " + spec.partitionBy()));
    PlanKeys.Allowances allow = new PlanKeys.Allowances(spec.allowNondeterministic(), spec.inputKey() != null,
        settings.inputChecksums());
    Map<Integer, Map<String, Long>> deltaPins = new TreeMap<>();
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      String name = "arg" + i;
      if (a instanceof Dataset<?> ds) {
        Map<String, Long> pins = PlanKeys.addDataset(parts, name, ds, allow);
        if (!pins.isEmpty()) {
          deltaPins.put(i, pins);
        }
      } else if (a instanceof SparkSession) {
        parts.add(name, "session", "the SparkSession (not part of the key)");
      } else {
        try {
          parts.add(name, Joblib.hash(a), KeyParts.describe(a));
          parts.input(name + ": " + KeyParts.describe(a));
        } catch (IllegalArgumentException e) {
          throw new StageKeyException("argument " + i + " of " + f.name() + " cannot be keyed: " + e.getMessage());
        }
      }
    }
    if (spec.inputKey() != null) {
      parts.add("inputKey", Joblib.hash(spec.inputKey()), spec.inputKey());
      parts.input("inputKey: " + spec.inputKey());
    }
    String stage = StageLayout.stageFolder(f.name(), f.identity());
    return new Keyed(stage, f.name(), f.identity(), parts, parts.key(), deltaPins);
  }

  private TreeMap<String, String> resultSettings() {
    TreeMap<String, String> out = new TreeMap<>();
    for (String k : RESULT_SETTINGS) {
      try {
        out.put(k, spark.conf().get(k));
      } catch (RuntimeException e) {
        // not a setting of this Spark version and not set
      }
    }
    for (Map.Entry<String, String> e : ScalaCollections.asJava(spark.conf().getAll()).entrySet()) {
      if (e.getKey().startsWith("spark.sql.legacy.")) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }
}
