package io.joblib4j.internal.memory;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.StorePaths;
import io.joblib4j.spi.upkeep.Holdings;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
  static final String GITIGNORE = Holdings.GITIGNORE;
  static final String GITIGNORE_CONTENT = Holdings.GITIGNORE_CONTENT;
  static final String FUNCTION_FILE = Holdings.FUNCTION_FILE;
  static final String OUTPUT_FILE = Holdings.OUTPUT_FILE;
  static final String METADATA_FILE = Holdings.METADATA_FILE;

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

  /** Whether a top-level name is shaped as a function folder ({@link FunctionIdentity#folderName}): necessary, not sufficient. */
  static boolean isFunctionFolderName(String name) {
    return Holdings.isFolderName(name);
  }

  /** Whether a name is shaped as a call key (an entry folder's name): 32 lowercase hex digits. */
  static boolean isKey(String name) {
    return Holdings.isKey(name);
  }

  /**
   * Whether a top-level folder is a memoized function's, one Memory owns and {@code Memory.clear}
   * deletes: {@link Holdings#isFunctionFolder}, named so and holding its {@code function.json}.
   * Anything else sharing the location (a ChunkedArray, the user's files) is not Memory's.
   */
  static boolean isFunctionFolder(Store store, String folder) throws IOException {
    return Holdings.isFunctionFolder(store, folder);
  }

  /**
   * Deletes a function's folder as far as it is Memory's: its entries (each identified by its
   * metadata.json), its function.json, and then the folder itself if nothing else is left in it. A
   * file or folder of the user's inside it stays, with the folder around it. Nothing happens to a
   * folder that is not a function's ({@link Holdings#isFunctionFolder}).
   */
  static void deleteFunctionFolder(Store store, String folder) throws IOException {
    try {
      deleteOwnParts(store, folder);
    } catch (Dir.LinkRefusedException link) {
      // the folder is (or became, under a racing swap) a link: not Memory's, never followed, left as it is
    }
  }

  private static void deleteOwnParts(Store store, String folder) throws IOException {
    List<StoreFile> listing = store.list(folder);
    if (!Holdings.isFunctionFolder(folder, listing)) {
      return;
    }
    Set<String> records = new HashSet<>();
    for (StoreFile f : listing) {
      if (!f.directory() && f.path().endsWith("/" + METADATA_FILE)) {
        records.add(f.path().substring(0, f.path().length() - METADATA_FILE.length() - 1));
      }
    }
    boolean othersLeft = false;
    for (StoreFile f : listing) {
      String rest = f.path().substring(folder.length() + 1);
      if (rest.indexOf('/') >= 0) {
        continue; // inside a child: goes with it, or stays with it
      }
      if (f.directory() && isKey(rest) && records.contains(f.path())) {
        store.delete(f.path());
      } else if (!(rest.equals(FUNCTION_FILE) && !f.directory())) {
        othersLeft = true;
      }
    }
    if (othersLeft) {
      return; // the user's files stay, and the function.json that says whose folder they are in
    }
    // nothing else listed; a listing leaves links out, so the folder goes only if the store finds it empty
    byte[] record = readAll(store, functionFile(folder));
    store.delete(functionFile(folder));
    if (!store.deleteIfEmpty(folder) && record != null) {
      store.replace(functionFile(folder), record); // something unlisted is in it: it stays Memory's folder
    }
  }

  private static byte[] readAll(Store store, String path) throws IOException {
    java.util.Optional<java.io.InputStream> in = store.open(path);
    if (in.isEmpty()) {
      return null;
    }
    try (java.io.InputStream s = in.get()) {
      return s.readAllBytes();
    }
  }
}
