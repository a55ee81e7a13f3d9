package io.joblib4j.spi.upkeep;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.StorePaths;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * What a cache location holds that is joblib4j's: the one definition that every command and API
 * call which deletes or writes there asks. A path counts only when its own record identifies it,
 * never by the shape of its name alone:
 *
 * <pre>
 * .gitignore                               joblib4j's when it starts with {@value #GITIGNORE_HEADER}
 * .joblib4j/                               the cache's bookkeeping (claims, locks, usage)
 * &lt;function folder&gt;/function.json          a memoized function's folder: named as Memory names them
 *                                          (a name and 12 hex digits) <em>and</em> holding this record
 * &lt;function folder&gt;/&lt;key&gt;/metadata.json     an entry: a 32-hex-digit folder in such a folder, with this record
 * stages/&lt;stage&gt;/&lt;key&gt;/entry.json          a stage entry, in a stage folder named as the stage cache names them
 * stages/&lt;stage&gt;/data/&lt;key&gt;.&lt;attempt&gt;/     a stage's data attempt (in a stage folder that holds entries)
 * </pre>
 *
 * Everything else (a folder named like a function's but without its {@code function.json}, a
 * 32-hex-digit folder without {@code metadata.json}, the user's files beside the cache) is the
 * user's: it is reported, never deleted, and a location that holds none of the above holds no cache
 * (the {@code joblib4j} command then changes nothing there).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Holdings {
  /** A memoized function's record, in its folder. */
  public static final String FUNCTION_FILE = "function.json";
  /** An entry's record, in its folder. */
  public static final String METADATA_FILE = "metadata.json";
  /** An entry's result, beside its record. */
  public static final String OUTPUT_FILE = "output.jl4j";
  /** The file that keeps a cache folder inside a repository out of it. */
  public static final String GITIGNORE = ".gitignore";
  /** The first line of the {@code .gitignore} joblib4j writes: one without it is the user's. */
  public static final String GITIGNORE_HEADER = "# Created by joblib4j automatically.";
  /** The whole {@code .gitignore} joblib4j writes. */
  public static final String GITIGNORE_CONTENT = GITIGNORE_HEADER + "\n*\n";
  /** The folder of the cache's own bookkeeping (claims, locks, usage). */
  public static final String BOOKKEEPING = ".joblib4j";
  /** The stage cache's folder. */
  public static final String STAGES = "stages";
  /** A stage entry's record. */
  public static final String STAGE_ENTRY_FILE = "entry.json";
  /** The folder of a stage's data attempts. */
  public static final String STAGE_DATA = "data";

  /** A function (or stage) folder's name: a readable name and 12 hex digits of its identity's hash. */
  private static final Pattern FOLDER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{12}");

  private Holdings() {}

  /**
   * Whether {@code name} is shaped like a function's or a stage's folder. Necessary, not sufficient:
   * the folder must also hold its record.
   *
   * @param name a folder's name (one path segment)
   * @return whether it is a name Memory or the stage cache gives its folders
   */
  public static boolean isFolderName(String name) {
    return FOLDER_NAME.matcher(name).matches();
  }

  /**
   * Whether {@code name} is a call key, an entry folder's name: 32 lowercase hex digits. Necessary,
   * not sufficient: the entry must also hold its record.
   *
   * @param name a folder's name (one path segment)
   * @return whether it is shaped like a key
   */
  public static boolean isKey(String name) {
    if (name.length() != 32) {
      return false;
    }
    for (int i = 0; i < 32; i++) { // a listing asks this of every entry: no regex
      char c = name.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the top-level folder {@code folder} is a memoized function's: named as Memory names them
   * and holding its {@code function.json}.
   *
   * @param store the cache's store
   * @param folder a top-level folder's name
   * @return whether Memory owns it
   * @throws IOException if the store cannot be read
   */
  public static boolean isFunctionFolder(Store store, String folder) throws IOException {
    return isFolderName(folder) && isFile(store, StorePaths.join(folder, FUNCTION_FILE));
  }

  /**
   * Whether {@code listing} (what {@link Store#list} gives for the folder {@code folder}) shows a
   * memoized function's folder: its name, and its {@code function.json} among the files.
   *
   * @param folder a top-level folder's name
   * @param listing the folder's listing, paths from the store's root
   * @return whether Memory owns it
   */
  public static boolean isFunctionFolder(String folder, List<StoreFile> listing) {
    if (!isFolderName(folder)) {
      return false;
    }
    String record = folder + "/" + FUNCTION_FILE;
    for (StoreFile f : listing) {
      if (!f.directory() && f.path().equals(record)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the folder {@code stage} under {@value #STAGES} is a stage's: named as the stage cache
   * names them and holding at least one entry's {@value #STAGE_ENTRY_FILE}.
   *
   * @param store the cache's store
   * @param stage the stage folder's name
   * @return whether the stage cache owns it
   * @throws IOException if the store cannot be read
   */
  public static boolean isStageFolder(Store store, String stage) throws IOException {
    if (!isFolderName(stage)) {
      return false;
    }
    String dir = StorePaths.join(STAGES, stage);
    for (StoreFile f : store.children(dir)) {
      String name = f.path().substring(dir.length() + 1);
      if (f.directory() && isKey(name) && isFile(store, StorePaths.join(dir, name, STAGE_ENTRY_FILE))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the location holds a joblib4j cache at all: joblib4j's {@code .gitignore} or bookkeeping,
   * a memoized function's folder, or a stage folder. A command that deletes changes nothing at a
   * location that holds none.
   *
   * @param store the location's store
   * @return whether anything there is joblib4j's
   * @throws IOException if the store cannot be read
   */
  public static boolean holdsCache(Store store) throws IOException {
    List<StoreFile> top = store.children("");
    for (StoreFile f : top) {
      if (f.path().equals(BOOKKEEPING) && f.directory() || f.path().equals(GITIGNORE) && !f.directory() && ours(store)) {
        return true;
      }
    }
    for (StoreFile f : top) {
      if (f.directory() && isFunctionFolder(store, f.path())) {
        return true;
      }
    }
    for (StoreFile f : top) {
      if (f.directory() && f.path().equals(STAGES)) {
        for (StoreFile s : store.children(STAGES)) {
          if (s.directory() && isStageFolder(store, s.path().substring(STAGES.length() + 1))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether the root's .gitignore is the one joblib4j writes. */
  private static boolean ours(Store store) throws IOException {
    Optional<InputStream> in = store.open(GITIGNORE);
    if (in.isEmpty()) {
      return false;
    }
    try (InputStream s = in.get()) {
      byte[] head = s.readNBytes(GITIGNORE_HEADER.length());
      return new String(head, StandardCharsets.UTF_8).equals(GITIGNORE_HEADER);
    }
  }

  /** Whether a record is there (one request: a store's {@code exists}, not a listing of the folder). */
  private static boolean isFile(Store store, String path) throws IOException {
    return store.exists(path);
  }
}
