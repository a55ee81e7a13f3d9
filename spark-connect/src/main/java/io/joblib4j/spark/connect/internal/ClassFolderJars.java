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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * A class folder (a build's output, an IDE's) as a jar, since a Connect server takes classes only
 * as jars or single class files; and, for a Spark 3.5 client, whose server files a single class file
 * under its bare name, class files kept in memory as a jar too. The jar is named by its content
 * ({@code <folder>-<sha256>.jar}, entries in order, fixed times), so the same classes make the same
 * artifact and a session is given them once. Made once per folder per JVM: a folder recompiled
 * while the JVM runs is not seen again.
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

  /**
   * A jar of {@code files} (contents by their path in a class folder, {@code pkg/Name.class}), named
   * {@code <name>-<sha256>.jar} by its content.
   */
  static Path jarOfFiles(String name, Map<String, byte[]> files) {
    try {
      return write(name, new TreeMap<>(files));
    } catch (IOException e) {
      throw new UncheckedIOException("joblib4j: cannot make a jar of the classes " + files.keySet()
          + " for the Spark Connect server: " + e.getMessage(), e);
    }
  }

  private static Path make(Path folder) {
    try (Stream<Path> walk = Files.walk(folder)) {
      Map<String, byte[]> files = new TreeMap<>();
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        files.put(folder.relativize(f).toString().replace(java.io.File.separatorChar, '/'), Files.readAllBytes(f));
      }
      return write(String.valueOf(folder.getFileName()), files);
    } catch (IOException e) {
      throw new UncheckedIOException("joblib4j: cannot make a jar of the class folder " + folder
          + " for the Spark Connect server: " + e.getMessage(), e);
    }
  }

  /** Writes {@code files} in their order into a jar named by its content. */
  private static Path write(String name, Map<String, byte[]> files) throws IOException {
    Path tmp = Files.createTempFile(TempJars.dir(), "folder-", ".jar");
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (JarOutputStream jar = new JarOutputStream(new DigestOutputStream(Files.newOutputStream(tmp), sha))) {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        ZipEntry e = new ZipEntry(f.getKey());
        e.setTime(FIXED_TIME);
        jar.putNextEntry(e);
        ((OutputStream) jar).write(f.getValue());
        jar.closeEntry();
      }
    }
    String jarName = name + "-" + HexFormat.of().formatHex(sha.digest()).substring(0, 16) + ".jar";
    return Files.move(tmp, tmp.resolveSibling(jarName), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
