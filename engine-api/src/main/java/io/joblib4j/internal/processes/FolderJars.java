package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folders of classes on the worker class path (an IDE, {@code mvn exec}, {@code target/classes})
 * replaced by jars of their content: the JDK archives classes for class-data sharing only from
 * jars ({@link WorkerCds}), so a folder class path would start every worker cold. The jar is
 * cached in the archive cache folder, named for the folder's content (every file's path, size and
 * time) and made once: written to a temporary file and renamed into place. A folder that cannot
 * be read or jarred stays a folder.
 *
 * <p>Reading a folder's content takes a walk over every file, too slow for every call; so a call
 * uses the jar this JVM made last for the folder, and the folder is read again in the background
 * (at most once a second): a changed folder reaches the workers started after that.
 */
final class FolderJars {
  private static final Logger LOG = LoggerFactory.getLogger(FolderJars.class);

  private static final java.util.Map<Path, Path> KNOWN = new java.util.concurrent.ConcurrentHashMap<>();
  private static final java.util.Map<Path, Long> CHECKED = new java.util.concurrent.ConcurrentHashMap<>();

  private FolderJars() {}

  /** {@code entries} with each folder replaced by its jar in {@code cache}. */
  static List<String> jarred(List<String> entries, Path cache) {
    List<String> out = new ArrayList<>(entries.size());
    for (String e : entries) {
      Path p = Path.of(e);
      if (!Files.isDirectory(p)) {
        out.add(e);
        continue;
      }
      Path known = KNOWN.get(p);
      if (known != null && Files.isRegularFile(known)) {
        recheckLater(p, cache);
        out.add(known.toString());
      } else {
        java.util.Optional<Path> jar = contentJar(p, cache);
        jar.ifPresent(j -> KNOWN.put(p, j));
        CHECKED.put(p, System.nanoTime()); // just walked: the next look within a second needs no other
        out.add(jar.map(Path::toString).orElse(e));
      }
    }
    return out;
  }

  private static void recheckLater(Path folder, Path cache) {
    long now = System.nanoTime();
    Long last = CHECKED.get(folder);
    if (last != null && now - last < 1_000_000_000L) {
      return; // checked within the last second
    }
    boolean mine = last == null ? CHECKED.putIfAbsent(folder, now) == null : CHECKED.replace(folder, last, now);
    if (!mine) {
      return; // another call is checking it
    }
    WorkerPools.schedule(() -> contentJar(folder, cache).ifPresent(j -> KNOWN.put(folder, j)), 0);
  }

  /** The jar of {@code folder}'s content now, made if it is not in {@code cache} yet. */
  static java.util.Optional<Path> contentJar(Path folder, Path cache) {
    try {
      List<Path> files;
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(folder.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
      try (Stream<Path> s = Files.walk(folder)) {
        files = s.filter(Files::isRegularFile).sorted().toList();
      }
      for (Path f : files) {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        d.update((folder.relativize(f) + ":" + a.size() + ":" + a.lastModifiedTime().toMillis() + "\n")
            .getBytes(StandardCharsets.UTF_8));
      }
      Path jar = cache.resolve("cp-" + HexFormat.of().formatHex(d.digest(), 0, 12) + ".jar");
      if (!Files.isRegularFile(jar)) {
        Path tmp = Files.createTempFile(cache, "cp-", ".jar.tmp");
        try {
          write(folder, files, tmp);
          Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE);
        } finally {
          Files.deleteIfExists(tmp);
        }
      }
      return java.util.Optional.of(jar);
    } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
      LOG.debug("workers use the folder {} as it is: cannot jar it", folder, e);
      return java.util.Optional.empty();
    }
  }

  private static void write(Path folder, List<Path> files, Path jar) throws IOException {
    try (OutputStream raw = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(raw)) {
      zip.setLevel(1); // written once per content; speed over size
      for (Path f : files) {
        String name = folder.relativize(f).toString().replace('\\', '/');
        ZipEntry entry = new ZipEntry(name);
        entry.setTime(Files.getLastModifiedTime(f).toMillis());
        zip.putNextEntry(entry);
        Files.copy(f, zip);
        zip.closeEntry();
      }
    }
  }
}
