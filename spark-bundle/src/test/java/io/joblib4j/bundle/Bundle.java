package io.joblib4j.bundle;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

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
   * The Connect client's class path ({@code bundle.connectClientClasspathFile}): the client and what
   * it brings, no joblib4j jar. Empty for a line whose bundle has no Spark Connect path.
   */
  public static Optional<List<Path>> connectClientClasspath() throws IOException {
    String file = System.getProperty("bundle.connectClientClasspathFile");
    if (file == null || file.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Arrays.stream(Files.readString(Path.of(file)).trim().split(File.pathSeparator))
        .map(Path::of).toList());
  }

  /**
   * What a Connect client application must add to the client's own class path
   * ({@code bundle.connectClientExtras}, a class path; none on Spark 4): the 3.5.0 client jar lacks
   * the Guava and protobuf it refers to, relocated, and Arrow's Netty buffers.
   */
  public static List<Path> connectClientExtras() {
    String extras = System.getProperty("bundle.connectClientExtras", "");
    return extras.isBlank() ? List.of()
        : Arrays.stream(extras.trim().split(File.pathSeparator)).map(Path::of).toList();
  }

  /**
   * Whether a class of the bundle (internal name) belongs to the Spark Connect path, which loads
   * only in a Connect client and links against its class path instead of classic Spark's.
   */
  public static boolean connectPath(String internalName) {
    return internalName.startsWith("io/joblib4j/spark/connect/");
  }

  /**
   * The references of the bundle's classic classes (all but the Connect path's) that {@code
   * classpath} cannot satisfy, leaving out the optional console bar (me.tongfei.progressbar), which
   * joblib4j uses only when it is present.
   */
  public static List<String> unresolvedOn(List<Path> classpath) throws IOException {
    return unresolved(classpath, c -> !connectPath(c));
  }

  /** The references of the bundle's Connect path that a Connect client's {@code classpath} cannot satisfy. */
  public static List<String> connectPathUnresolvedOn(List<Path> classpath) throws IOException {
    return unresolved(classpath, Bundle::connectPath);
  }

  private static List<String> unresolved(List<Path> classpath, Predicate<String> checked) throws IOException {
    List<Path> all = new ArrayList<>();
    all.add(jar());
    all.addAll(classpath);
    try (LinkageCheck check = new LinkageCheck(all)) {
      return check.unresolvedFrom(jar(), checked, target -> target.startsWith("me/tongfei/progressbar/"));
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
