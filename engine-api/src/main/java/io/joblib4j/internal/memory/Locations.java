package io.joblib4j.internal.memory;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * What a Memory location names before any store is opened: a local folder (a plain path or a
 * {@code file:} URI) can be checked when the Memory is built, so that a location that can never
 * hold a cache is refused there with what to do, instead of every call computing without a cache.
 */
public final class Locations {
  private Locations() {}

  /** The local folder {@code location} names, or empty for another scheme ({@code hdfs:}, ...). */
  static Optional<Path> localFolder(String location) {
    int colon = location.indexOf(':');
    boolean looksLikeUri = colon > 1 && location.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*");
    try {
      if (!looksLikeUri) {
        return Optional.of(Path.of(location));
      }
      URI uri = URI.create(location);
      return "file".equals(uri.getScheme().toLowerCase(Locale.ROOT)) ? Optional.of(Path.of(uri)) : Optional.empty();
    } catch (IllegalArgumentException e) { // a malformed URI or path (InvalidPathException)
      return Optional.empty(); // the store says what is wrong with it when it is opened
    }
  }

  /**
   * Refuses a local location that can never be a cache folder: a regular file, or a path under one.
   *
   * @throws IllegalArgumentException saying what is wrong and what to do
   */
  public static void checkUsable(String location) {
    if (location == null) {
      return;
    }
    Optional<Path> folder = localFolder(location);
    if (folder.isEmpty()) {
      return;
    }
    Path p = folder.get().toAbsolutePath().normalize();
    if (Files.isRegularFile(p)) {
      throw new IllegalArgumentException("the Memory location " + p + " is a file, not a folder: Memory keeps its"
          + " cache in a folder, which it creates if missing. Give the path of a folder (or null to disable caching)");
    }
    for (Path up = p.getParent(); up != null; up = up.getParent()) {
      if (Files.isDirectory(up)) {
        return;
      }
      if (Files.exists(up)) {
        throw new IllegalArgumentException("the Memory location " + p + " cannot be created: " + up + " is a file,"
            + " not a folder. Give the path of a folder (or null to disable caching)");
      }
    }
  }
}
