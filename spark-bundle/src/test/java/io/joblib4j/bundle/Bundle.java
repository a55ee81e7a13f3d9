package io.joblib4j.bundle;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where the bundle jar and a Spark line's class path are, as the build passes them in system
 * properties, and the linkage check of the one against the other. Shared with the compat modules.
 */
public final class Bundle {
  private Bundle() {}

  /** The packaged bundle jar ({@code bundle.jar}). */
  public static Path jar() {
    Path jar = Path.of(required("bundle.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " does not exist: run the tests through Maven's verify,"
          + " which packages the bundle first");
    }
    return jar;
  }

  /** Spark's jars and what they bring, as a distribution's jars/ holds them ({@code bundle.sparkClasspath}). */
  public static List<Path> sparkClasspath() {
    return Arrays.stream(required("bundle.sparkClasspath").split(File.pathSeparator)).map(Path::of).toList();
  }

  /**
   * The bundle's references that {@code classpath} cannot satisfy, leaving out the optional
   * console bar (me.tongfei.progressbar), which joblib4j uses only when it is present.
   */
  public static List<String> unresolvedOn(List<Path> classpath) throws IOException {
    List<Path> all = new ArrayList<>();
    all.add(jar());
    all.addAll(classpath);
    try (LinkageCheck check = new LinkageCheck(all)) {
      return check.unresolvedFrom(jar(), target -> target.startsWith("me/tongfei/progressbar/"));
    }
  }

  static String required(String property) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("system property " + property + " is not set: run this test"
          + " through Maven (mvn -pl spark-bundle -am verify)");
    }
    return v;
  }
}
