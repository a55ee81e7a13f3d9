package io.joblib4j.spark.connect.internal;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.connect.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jars a Connect server's executors need to run joblib4j's tasks, added to the session once:
 * joblib4j's own (engine-api, this module) and the libraries engine-api brings that Spark does not
 * ship (Kryo 5, zero-allocation-hashing, ASM) — or the one bundle jar that holds them — found where
 * the client loaded those classes from, and the application's jars the {@code jars} option names.
 */
final class ConnectArtifacts {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectArtifacts.class);
  /** Classes whose jars the executors need; one jar may hold several (the bundle). */
  static final List<String> JOBLIB4J_CLASSES = List.of(
      "io.joblib4j.Joblib",
      "io.joblib4j.spark.connect.internal.ConnectTask",
      "com.esotericsoftware.kryo.kryo5.Kryo",
      "net.openhft.hashing.LongHashFunction",
      "org.objectweb.asm.ClassReader",
      "io.joblib4j.shaded.kryo5.Kryo");

  /** What each session (by id) was given already: a jar is added once per session. */
  private static final Map<String, Set<Path>> ADDED = new ConcurrentHashMap<>();

  private ConnectArtifacts() {}

  /** joblib4j's jars as this JVM loaded them; classes loaded from folders (an IDE's) are skipped, with a note. */
  static List<Path> joblib4jJars() {
    Set<Path> jars = new LinkedHashSet<>();
    for (String name : JOBLIB4J_CLASSES) {
      Path where = locationOf(name);
      if (where == null) {
        continue;
      }
      if (Files.isRegularFile(where) && where.toString().endsWith(".jar")) {
        jars.add(where);
      } else {
        LOG.warn("joblib4j: {} was loaded from {}, which is not a jar: the Connect server cannot be given it."
            + " Build the jar, or add it to the session yourself (session.addArtifact)", name, where);
      }
    }
    return new ArrayList<>(jars);
  }

  private static Path locationOf(String className) {
    try {
      Class<?> c = Class.forName(className, false, ConnectArtifacts.class.getClassLoader());
      CodeSource source = c.getProtectionDomain().getCodeSource();
      return source == null || source.getLocation() == null ? null : Path.of(source.getLocation().toURI());
    } catch (ClassNotFoundException | LinkageError | URISyntaxException | SecurityException
        | IllegalArgumentException absent) {
      return null; // not on this class path (the bundle relocates some): nothing to ship
    }
  }

  /**
   * Adds each of {@code jars} to {@code session} unless it was added before.
   *
   * @return how many were added now
   */
  static int addOnce(SparkSession session, List<Path> jars) {
    Set<Path> added = ADDED.computeIfAbsent(session.sessionId(), id -> ConcurrentHashMap.newKeySet());
    int now = 0;
    synchronized (added) {
      for (Path jar : jars) {
        Path p = jar.toAbsolutePath().normalize();
        if (added.contains(p)) {
          continue;
        }
        if (!Files.isRegularFile(p)) {
          throw new IllegalArgumentException("joblib4j: " + p + " (a jar the Spark Connect server's executors"
              + " should be given) does not exist");
        }
        session.addArtifact(p.toString());
        added.add(p);
        now++;
      }
    }
    return now;
  }
}
