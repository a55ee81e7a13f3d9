package io.joblib4j.spark.connect.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * A class folder (a build's output, an IDE's) as a jar, since a Connect server takes classes only
 * as jars or single class files. The jar is named by its content ({@code <folder>-<sha256>.jar},
 * entries in order, fixed times), so the same classes make the same artifact and a session is
 * given them once. Made once per folder per JVM: a folder recompiled while the JVM runs is not seen
 * again.
 */
final class ClassFolderJars {
  private static final Map<Path, Path> MADE = new ConcurrentHashMap<>();
  /** 1980-01-01, the earliest time a zip entry holds: the same classes give the same bytes. */
  private static final long FIXED_TIME = 315_532_800_000L;

  private ClassFolderJars() {}

  /** The jar of {@code folder}'s files, made on first use. */
  static Path jarOf(Path folder) {
    return MADE.computeIfAbsent(folder.toAbsolutePath().normalize(), ClassFolderJars::make);
  }

  private static Path make(Path folder) {
    try {
      Path tmp = Files.createTempFile(TempJars.dir(), "folder-", ".jar");
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      try (Stream<Path> walk = Files.walk(folder);
           JarOutputStream jar = new JarOutputStream(new DigestOutputStream(Files.newOutputStream(tmp), sha))) {
        List<Path> files = walk.filter(Files::isRegularFile).sorted().toList();
        for (Path f : files) {
          ZipEntry e = new ZipEntry(folder.relativize(f).toString().replace(java.io.File.separatorChar, '/'));
          e.setTime(FIXED_TIME);
          jar.putNextEntry(e);
          Files.copy(f, (OutputStream) jar);
          jar.closeEntry();
        }
      }
      String name = folder.getFileName() + "-" + HexFormat.of().formatHex(sha.digest()).substring(0, 16) + ".jar";
      return Files.move(tmp, tmp.resolveSibling(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("joblib4j: cannot make a jar of the class folder " + folder
          + " for the Spark Connect server: " + e.getMessage(), e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
