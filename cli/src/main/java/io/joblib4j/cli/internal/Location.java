package io.joblib4j.cli.internal;

import io.joblib4j.cli.Main;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.Stores;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Opens the store at a location the user typed: a local path or {@code file:} URI through
 * joblib4j's local store, anything else through the Hadoop FileSystem of its scheme. The location
 * must exist: a command that only looks never creates a folder at a mistyped path.
 */
public final class Location {
  private Location() {}

  public static Store open(String location, Supplier<Configuration> settings) {
    if (location == null || location.isBlank()) {
      throw new CliException(Main.USAGE, "no location given: a path, file:/..., hdfs://namenode/... or another Hadoop URI");
    }
    String scheme = scheme(location);
    if (scheme == null || scheme.equals("file")) {
      Path dir = localPath(location, scheme);
      if (!Files.isDirectory(dir)) {
        throw new CliException(Main.UNREACHABLE, "no cache at " + location + ": " + dir
            + (Files.exists(dir) ? " is not a folder" : " does not exist"));
      }
      return Stores.open(dir.toString(), Map.of());
    }
    Configuration conf = settings.get();
    URI uri;
    try {
      uri = URI.create(location);
    } catch (IllegalArgumentException e) {
      throw new CliException(Main.USAGE, "not a URI: " + location + " (" + e.getMessage() + ")");
    }
    FileSystem fs;
    try {
      fs = FileSystem.newInstance(uri, conf);
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("No FileSystem for scheme")) {
        throw new CliException(Main.USAGE, "no Hadoop FileSystem serves " + scheme + ": (" + e.getMessage()
            + "); set fs." + scheme + ".impl with --conf, or put its client on the class path", e);
      }
      throw unreachable(location, e);
    }
    try (fs) {
      org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(uri);
      if (!fs.exists(root)) {
        throw new CliException(Main.UNREACHABLE, "no cache at " + location + ": it does not exist");
      }
      if (!fs.getFileStatus(root).isDirectory()) {
        throw new CliException(Main.UNREACHABLE, "no cache at " + location + ": it is not a folder");
      }
    } catch (IOException e) {
      throw unreachable(location, e);
    }
    try {
      return HadoopStores.open(uri, conf, Map.of());
    } catch (IOException e) {
      throw unreachable(location, e);
    }
  }

  private static CliException unreachable(String location, IOException e) {
    return new CliException(Main.UNREACHABLE, "cannot reach " + location + ": " + Cli.message(e), e);
  }

  static String scheme(String location) {
    int colon = location.indexOf(':');
    // C:\cache is a path, not a URI with scheme c
    if (colon > 1 && location.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
      return location.substring(0, colon).toLowerCase(Locale.ROOT);
    }
    return null;
  }

  private static Path localPath(String location, String scheme) {
    try {
      return scheme == null ? Path.of(location).toAbsolutePath() : Path.of(URI.create(location));
    } catch (IllegalArgumentException e) {
      throw new CliException(Main.USAGE, "not a local path: " + location + " (" + e.getMessage() + ")");
    }
  }
}
