package io.joblib4j.spark.connect.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connect.client.REPLClassDirMonitor;

/**
 * What a Connect session was given, so that each jar crosses once per session: joblib4j's own jars
 * (engine-api, this module, Kryo 5, hash4j, ASM — or the one bundle jar that holds
 * them), the application's jars and class folders, and the jars of shared arguments. A session is
 * known by its id; a jar by its file name, which is what the server files it under.
 */
final class ConnectArtifacts {
  /** Classes whose code the executors need; one jar may hold several (the bundle). */
  static final List<String> JOBLIB4J_CLASSES = List.of(
      "io.joblib4j.Joblib",
      "io.joblib4j.spark.connect.internal.ConnectTask",
      "com.esotericsoftware.kryo.kryo5.Kryo",
      "com.dynatrace.hash4j.hashing.Hashing",
      "org.objectweb.asm.ClassReader",
      "io.joblib4j.shaded.kryo5.Kryo");

  /** Per session id: the artifact names given, with the file each came from. */
  private static final Map<String, Map<String, Path>> ADDED = new ConcurrentHashMap<>();
  /** Per session id: the REPL output folders whose class finder is registered. */
  private static final Map<String, Set<Path>> REPL_FOLDERS = new ConcurrentHashMap<>();
  private static final AtomicLong UPLOADS = new AtomicLong();

  private ConnectArtifacts() {}

  /** Where this JVM loaded joblib4j's classes from (jars, or the folders of a build). */
  static Set<CodeLocation> joblib4jCode() {
    Set<CodeLocation> out = new LinkedHashSet<>();
    for (String name : JOBLIB4J_CLASSES) {
      try {
        out.add(CodeLocation.of(Class.forName(name, false, ConnectArtifacts.class.getClassLoader())));
      } catch (ClassNotFoundException | LinkageError absent) {
        // not on this class path (the bundle relocates some): nothing to ship
      }
    }
    return out;
  }

  /** Whether {@code session} was given an artifact of this name. */
  static boolean added(SparkSession session, String name) {
    return ADDED.getOrDefault(ConnectSessions.id(session), Map.of()).containsKey(name);
  }

  /**
   * Adds {@code jar} to {@code session} unless a jar of its name was added before; a different
   * file of a name already taken goes under a name of its own (the server refuses to replace one).
   *
   * @return whether it was uploaded now
   */
  static boolean addOnce(SparkSession session, Path jar) {
    Path p = jar.toAbsolutePath().normalize();
    if (!Files.isRegularFile(p)) {
      throw new IllegalArgumentException("joblib4j: " + p + " (a jar the Spark Connect server's executors"
          + " should be given) does not exist");
    }
    Map<String, Path> given = ADDED.computeIfAbsent(ConnectSessions.id(session), id -> new ConcurrentHashMap<>());
    synchronized (given) {
      String name = p.getFileName().toString();
      Path before = given.get(name);
      if (p.equals(before)) {
        return false;
      }
      if (before != null) {
        name = name.replaceFirst("\\.jar$", "") + "-" + Integer.toHexString(p.toString().hashCode()) + ".jar";
        if (given.containsKey(name)) {
          return false;
        }
        p = copyAs(p, name);
      }
      session.addArtifact(p.toString());
      UPLOADS.incrementAndGet();
      given.put(name, jar.toAbsolutePath().normalize());
      return true;
    }
  }

  /** Registers the client's class finder for a REPL's output folder, once per session. */
  static void registerReplFolder(SparkSession session, Path folder) {
    if (REPL_FOLDERS.computeIfAbsent(ConnectSessions.id(session), id -> ConcurrentHashMap.newKeySet()).add(folder)) {
      ConnectSessions.registerClassFinder(session, new REPLClassDirMonitor(folder.toAbsolutePath().toString()));
    }
  }

  /** How many jars this JVM uploaded to any session, for tests. */
  static long uploads() {
    return UPLOADS.get();
  }

  private static Path copyAs(Path jar, String name) {
    try {
      Path dir = Files.createTempDirectory(TempJars.dir(), "renamed-");
      return Files.copy(jar, dir.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException("joblib4j: cannot copy " + jar + " to give it to the Spark Connect server", e);
    }
  }
}
