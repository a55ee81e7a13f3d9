package io.joblib4j.internal.code;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Which classes are the user's own code, whose methods a code version follows. A class is, when
 * its class file is readable through the function's class loader and:
 *
 * <ol>
 *   <li>it is not the JDK's (served from the runtime image, {@code jrt:}), and
 *   <li>its package is not {@code java.}, {@code javax.}, {@code jdk.}, {@code sun.}, {@code
 *       com.sun.}, {@code scala.}, {@code org.apache.spark.}, {@code org.apache.hadoop.} or
 *       {@code io.joblib4j.}, nor a prefix listed in {@code -Djoblib4j.codeVersion.exclude}, and
 *   <li>it comes from a folder of classes (a build's output), from the same jar as the cached
 *       function's class (the application jar), or from no file at all (a REPL's classes).
 * </ol>
 *
 * <p>Packages listed in {@code -Djoblib4j.codeVersion.include} are the user's code wherever they
 * come from (another module's jar), unless they are the JDK's. Classes from any other jar are
 * libraries: their code is not followed, so upgrading a library does not invalidate results,
 * and a walk stays small and fast. Prefixes are comma-separated package names ({@code
 * com.acme.,org.example.models}).
 */
final class CodeScope {
  static final String INCLUDE_PROPERTY = "joblib4j.codeVersion.include";
  static final String EXCLUDE_PROPERTY = "joblib4j.codeVersion.exclude";
  /** At most this many methods are hashed into one version, and calls are followed this deep. */
  static final int MAX_METHODS = 1000;
  static final int MAX_DEPTH = 20;

  private static final List<String> NOT_USER_CODE = List.of("java/", "javax/", "jdk/", "sun/", "com/sun/",
      "scala/", "org/apache/spark/", "org/apache/hadoop/", "io/joblib4j/");

  final List<String> include;
  final List<String> exclude;
  final int maxMethods;
  final int maxDepth;

  CodeScope(List<String> include, List<String> exclude, int maxMethods, int maxDepth) {
    this.include = List.copyOf(include);
    this.exclude = List.copyOf(exclude);
    this.maxMethods = maxMethods;
    this.maxDepth = maxDepth;
  }

  /** The scope the system properties give, with the default bounds. */
  static CodeScope fromSystemProperties() {
    return new CodeScope(prefixes(System.getProperty(INCLUDE_PROPERTY)), prefixes(System.getProperty(EXCLUDE_PROPERTY)),
        MAX_METHODS, MAX_DEPTH);
  }

  /** {@code "com.acme., org.x"} as internal-name prefixes {@code [com/acme/, org/x]}. */
  static List<String> prefixes(String property) {
    if (property == null || property.isBlank()) {
      return List.of();
    }
    return Arrays.stream(property.split(",")).map(String::trim).filter(p -> !p.isEmpty())
        .map(p -> p.replace('.', '/')).toList();
  }

  /**
   * Whether the class {@code name} (internal name), served from {@code location} (see {@link
   * ClassFiles#location}), is user code for a function whose class came from {@code startLocation}.
   * {@code location} is asked for only when the name does not decide.
   */
  boolean isUserCode(String name, java.util.function.Supplier<String> location, String startLocation) {
    boolean included = startsWithAny(name, include);
    if (!included && (startsWithAny(name, NOT_USER_CODE) || startsWithAny(name, exclude))) {
      return false;
    }
    String where = location.get();
    if (where.equals("jrt")) {
      return false;
    }
    return included || where.equals("dir") || where.equals("other") || where.equals(startLocation);
  }

  private static boolean startsWithAny(String name, List<String> prefixes) {
    for (String p : prefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** Identifies the scope in caches of versions. */
  String id() {
    return include + "|" + exclude + "|" + maxMethods + "|" + maxDepth;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CodeScope s && s.id().equals(id());
  }

  @Override
  public int hashCode() {
    return Objects.hash(id());
  }
}
