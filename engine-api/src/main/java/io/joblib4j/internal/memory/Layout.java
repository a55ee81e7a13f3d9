package io.joblib4j.internal.memory;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.StorePaths;
import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where Memory puts things in a store:
 *
 * <pre>
 * .gitignore                        "*": a cache folder inside a repository stays out of it
 * &lt;function folder&gt;/function.json     the function's identity and current code version
 * &lt;function folder&gt;/&lt;key&gt;/output.jl4j  the result, in joblib4j's container format
 * &lt;function folder&gt;/&lt;key&gt;/metadata.json duration, time, arguments, code version, checksum
 * </pre>
 *
 * Memory owns these and nothing else: other files and folders at the same location (a ChunkedArray,
 * the user's own) are never deleted by {@code Memory.clear}.
 */
final class Layout {
  static final String GITIGNORE = ".gitignore";
  static final String GITIGNORE_CONTENT = "# Created by joblib4j automatically.\n*\n";
  static final String FUNCTION_FILE = "function.json";
  static final String OUTPUT_FILE = "output.jl4j";
  static final String METADATA_FILE = "metadata.json";
  /** A function folder: a readable name and 12 hex digits of its identity's hash. */
  private static final Pattern FUNCTION_FOLDER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{12}");

  private Layout() {}

  static String entry(String folder, String key) {
    return StorePaths.join(folder, key);
  }

  static String output(String entry) {
    return entry + "/" + OUTPUT_FILE;
  }

  static String metadata(String entry) {
    return entry + "/" + METADATA_FILE;
  }

  static String functionFile(String folder) {
    return folder + "/" + FUNCTION_FILE;
  }

  /** Whether a store path names an entry folder: two segments, the second a 32-hex key. */
  static boolean isEntry(String path) {
    int slash = path.indexOf('/');
    return slash > 0 && path.indexOf('/', slash + 1) < 0 && isKey(path.substring(slash + 1));
  }

  /** Whether a top-level name is named as a function folder ({@link FunctionIdentity#folderName}). */
  static boolean isFunctionFolderName(String name) {
    return FUNCTION_FOLDER.matcher(name).matches();
  }

  /** Whether a name is a call key (an entry folder's name): 32 lowercase hex digits. */
  static boolean isKey(String name) {
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
   * Whether a top-level folder is a memoized function's — one Memory owns and {@code Memory.clear}
   * deletes: named as {@link FunctionIdentity#folderName} names them, and holding its {@code
   * function.json}, or else nothing but entry folders (its function.json lost). Anything else
   * sharing the location (a ChunkedArray, the user's files) is not Memory's.
   */
  static boolean isFunctionFolder(Store store, String folder) throws IOException {
    if (!FUNCTION_FOLDER.matcher(folder).matches()) {
      return false;
    }
    if (store.exists(functionFile(folder))) {
      return true;
    }
    List<StoreFile> children = store.children(folder);
    return !children.isEmpty() && children.stream()
        .allMatch(c -> c.directory() && isKey(c.path().substring(folder.length() + 1)));
  }
}
