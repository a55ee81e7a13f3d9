package io.joblib4j.spark.stages.internal;

import io.joblib4j.Joblib;
import io.joblib4j.spi.support.StorePaths;
import io.joblib4j.spi.upkeep.Holdings;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a stage cache keeps things under its location (FORMAT.md, "Pipeline stages"):
 *
 * <pre>
 * stages/                                    the stage cache's folder: Memory never claims it
 * stages/&lt;stage&gt;/                            one folder per stage function: Pipeline.clean-1a2b3c4d5e6f
 * stages/&lt;stage&gt;/&lt;key&gt;/entry.json            a committed entry: published atomically, create-if-absent
 * stages/&lt;stage&gt;/data/&lt;key&gt;.&lt;attempt&gt;/      the Parquet files one attempt wrote; read only through an entry
 * </pre>
 *
 * Nothing here links Spark: the command line lists, sizes, prunes and clears entries with it.
 */
public final class StageLayout {
  /** The top folder. Memory's function folders end in {@code -<12 hex digits>}, so this is never one. */
  public static final String ROOT = Holdings.STAGES;
  /** An entry's record, the commit point. */
  public static final String ENTRY_FILE = Holdings.STAGE_ENTRY_FILE;
  /** The folder of a stage's data attempts. */
  public static final String DATA = Holdings.STAGE_DATA;
  private static final int MAX_NAME = 100;
  private static final Pattern STAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{12}");
  private static final Pattern ATTEMPT = Pattern.compile("([0-9a-f]{32})\\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})");
  /** A stage's data folder inside any URI or path: {@code .../stages/<stage>/data/<key>.<attempt>}. */
  private static final Pattern DATA_PATH = Pattern.compile(".*/" + ROOT + "/(" + STAGE.pattern() + ")/" + DATA + "/"
      + ATTEMPT.pattern() + "/?");

  private StageLayout() {}

  /** {@code Pipeline.clean-1a2b3c4d5e6f}: the readable name and 12 hex digits of the identity's hash. */
  public static String stageFolder(String name, String identity) {
    String readable = name.replaceAll("[^A-Za-z0-9._-]", "_").replaceAll("^[._-]+", "");
    if (readable.length() > MAX_NAME) {
      readable = readable.substring(readable.length() - MAX_NAME).replaceAll("^[._-]+", "");
    }
    return (readable.isEmpty() ? "stage" : readable) + "-" + Joblib.hash(identity).substring(0, 12).toLowerCase(Locale.ROOT);
  }

  /** Whether a name is shaped as a stage folder's: necessary, not sufficient ({@link Holdings#isStageFolder}). */
  public static boolean isStageFolder(String segment) {
    return Holdings.isFolderName(segment);
  }

  /** Whether a name is shaped as a key ({@link Holdings#isKey}). */
  public static boolean isKey(String segment) {
    return Holdings.isKey(segment);
  }

  public static String stageDir(String stage) {
    return StorePaths.join(ROOT, stage);
  }

  public static String entry(String stage, String key) {
    return StorePaths.join(ROOT, stage, key);
  }

  public static String entryFile(String stage, String key) {
    return StorePaths.join(ROOT, stage, key, ENTRY_FILE);
  }

  public static String dataRoot(String stage) {
    return StorePaths.join(ROOT, stage, DATA);
  }

  public static String data(String stage, String dataFolder) {
    return StorePaths.join(ROOT, stage, DATA, dataFolder);
  }

  /** {@code <key>.<attempt uuid>}: each attempt writes its own folder. */
  public static String dataFolder(String key, String attempt) {
    return key + "." + attempt;
  }

  /** The key a data folder belongs to, or empty if the name is not one of ours. */
  public static Optional<String> keyOfDataFolder(String name) {
    Matcher m = ATTEMPT.matcher(name);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /**
   * The stage entry a path (URI) of a stage's data folder belongs to ({@code <stage>/<key>}), or
   * empty: how a stage's output read by another stage is keyed by the first stage's key, with no
   * file listing. Data folders are written once and never changed, so the path is the content.
   */
  public static Optional<String> stageOutputOf(String path) {
    Matcher m = DATA_PATH.matcher(path);
    return m.matches() ? Optional.of(m.group(1) + "/" + m.group(2)) : Optional.empty();
  }
}
