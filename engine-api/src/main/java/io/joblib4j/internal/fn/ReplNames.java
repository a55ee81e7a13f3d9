package io.joblib4j.internal.fn;

import java.util.regex.Pattern;

/**
 * The names a Scala REPL gives the classes of its cells — spark-shell, Zeppelin and Databricks
 * notebooks all compile cell {@code N} into {@code $lineN.$read}, wrapped in as many {@code $iw}
 * classes as the cell has import scopes ({@code $line7.$read$$iw$$iw}), with the cell's own
 * classes and objects inside ({@code $line7.$read$$iw$Scorer$}).
 *
 * <p>The cell number depends on how many cells ran before, and the number of {@code $iw} levels
 * on the imports in scope, so neither may reach a cached function's identity or code version: a
 * notebook restarted, or a cell run again, must find the entries its unchanged code made before.
 */
public final class ReplNames {
  private ReplNames() {}

  // "$line7" before "$read", in every spelling the compiler uses: the package ($line7.$read,
  // $line7/$read), an import val ($line7$read) and an outer accessor ($line7$$read$$iw$$$outer).
  // Databricks numbers its lines with letters and digits too.
  private static final Pattern LINE = Pattern.compile("\\$line[0-9A-Za-z]+?(?=(?:[./]\\$|\\$\\$?)read)");
  private static final Pattern WRAPPERS = Pattern.compile("(\\$+read)(?:\\$\\$iw)+");
  private static final Pattern WRAPPER_CLASS = Pattern.compile("\\$line[0-9A-Za-z]+[./]\\$read(?:\\$\\$iw)*");

  /**
   * {@code text} with every REPL cell number and {@code $iw} nesting removed: {@code
   * $line7.$read$$iw$$iw$Scorer$} becomes {@code $line.$read$Scorer$}, in class names (dotted or
   * internal), descriptors and instruction text alike. Text without REPL names is returned as is.
   */
  public static String canonicalize(String text) {
    if (!text.contains("$line")) {
      return text;
    }
    String noLines = LINE.matcher(text).replaceAll("\\$line");
    return WRAPPERS.matcher(noLines).replaceAll("$1");
  }

  /** Whether {@code binaryName} ({@code a.b.C} or {@code a/b/C}) is a class a REPL compiled from a cell. */
  public static boolean isReplClass(String binaryName) {
    return binaryName.startsWith("$line") && (binaryName.contains(".$read") || binaryName.contains("/$read"));
  }

  /**
   * Whether {@code binaryName} is one of a cell's wrappers ({@code $read}, {@code $read$$iw}, ...):
   * an object holding the cell's values, not a value of the user's.
   */
  public static boolean isWrapper(String binaryName) {
    return WRAPPER_CLASS.matcher(binaryName).matches();
  }

  /**
   * The user's name for a REPL class: {@code Scorer} for {@code $line7.$read$$iw$Scorer$}, {@code
   * Outer.Inner} for a nested one, and the empty string for a cell's wrapper itself (top-level
   * {@code def}s and {@code val}s of a cell live there).
   */
  public static String userName(String binaryName) {
    String s = canonicalize(binaryName.replace('/', '.'));
    int read = s.indexOf("$read");
    s = read < 0 ? s : s.substring(read + "$read".length());
    s = s.replaceAll("\\$+", ".").replaceAll("^\\.+|\\.+$", "");
    return s;
  }
}
