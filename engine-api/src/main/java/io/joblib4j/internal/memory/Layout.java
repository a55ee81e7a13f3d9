package io.joblib4j.internal.memory;

import io.joblib4j.spi.StorePaths;

/**
 * Where Memory puts things in a store:
 *
 * <pre>
 * .gitignore                        "*": a cache folder inside a repository stays out of it
 * &lt;function folder&gt;/function.json     the function's identity and current code version
 * &lt;function folder&gt;/&lt;key&gt;/output.jl4j  the result, in joblib4j's container format
 * &lt;function folder&gt;/&lt;key&gt;/metadata.json duration, time, arguments, code version, checksum
 * </pre>
 */
final class Layout {
  static final String GITIGNORE = ".gitignore";
  static final String GITIGNORE_CONTENT = "# Created by joblib4j automatically.\n*\n";
  static final String FUNCTION_FILE = "function.json";
  static final String OUTPUT_FILE = "output.jl4j";
  static final String METADATA_FILE = "metadata.json";

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
    return slash > 0 && path.indexOf('/', slash + 1) < 0 && path.substring(slash + 1).matches("[0-9a-f]{32}");
  }
}
