package io.joblib4j.spark.connect.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** This JVM's folder for the jars it makes for a Connect server, deleted when the JVM exits. */
final class TempJars {
  private static Path dir;

  private TempJars() {}

  static synchronized Path dir() {
    if (dir == null) {
      try {
        dir = Files.createTempDirectory("joblib4j-connect-");
      } catch (IOException e) {
        throw new UncheckedIOException("joblib4j: cannot create a temporary folder for the Spark Connect"
            + " server's jars (" + e.getMessage() + "); set java.io.tmpdir to a writable folder", e);
      }
      Path made = dir;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(made), "joblib4j-connect-jars"));
    }
    return dir;
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException ignored) {
      // the JVM is exiting; the OS cleans its temporary folder
    }
  }
}
