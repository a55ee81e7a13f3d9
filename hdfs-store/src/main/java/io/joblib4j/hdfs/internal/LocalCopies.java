package io.joblib4j.hdfs.internal;

import io.joblib4j.CorruptFileException;
import io.joblib4j.hdfs.HadoopStoreOptions;
import io.joblib4j.spi.support.CountingCrcOutputStream;
import io.joblib4j.spi.support.OwnerOnlyFolders;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * This machine's read-through cache of store files, so that a file on HDFS or S3 can be
 * memory-mapped: one copy per machine, shared by every JVM of the user (Spark executors on one node
 * download a file once), kept under a size bound with the least recently used copies evicted first.
 *
 * <ul>
 *   <li>A copy is named by a hash of the file's identity (store path and publication id, so an entry
 *       deleted and published again is a new copy), and is downloaded to a temporary name, checked
 *       against the size and CRC32C its entry's manifest recorded, forced to disk and renamed into
 *       place: a copy that exists is complete and verified.
 *   <li>A copy this JVM did not download is checked once per JVM before it is first returned (the
 *       local disk may have damaged it since).
 *   <li>Downloads of one file are serialized by a lock file, across JVMs too.
 *   <li>Recency is the copy's access time (set explicitly, at most once a minute): its modification
 *       time stays fixed, so Memory's own once-per-file verification is not redone on every hit.
 *   <li>Eviction skips copies used in the last minute, so a copy another JVM has just been handed is
 *       not deleted under it before it maps it (a mapped copy survives deletion on POSIX systems).
 * </ul>
 */
final class LocalCopies {
  private static final long RECENT_MILLIS = 60_000;
  private static final int BUFFER = 1 << 20;
  private static final Set<String> VERIFIED = ConcurrentHashMap.newKeySet();
  private static final ConcurrentHashMap<String, Object> DOWNLOADING = new ConcurrentHashMap<>();

  private final Path dir;
  private final long maxBytes;
  private final Path ownersOnlyRoot;
  private volatile boolean rootChecked;

  LocalCopies(Path dir, long maxBytes) {
    this(dir, maxBytes, dir.toAbsolutePath().normalize().equals(StoreOptions.defaultInTemp())
        ? StoreOptions.defaultInTemp().getParent() : null);
  }

  /**
   * @param ownersOnlyRoot a folder of a predictable name in the shared temporary folder that holds
   *     {@code dir} (the default's {@code joblib4j-<user>}), used only if it is this user's alone:
   *     another local user could make it first and leave copies there for this user to map, or read
   *     this user's; null for a folder the user chose
   */
  LocalCopies(Path dir, long maxBytes, Path ownersOnlyRoot) {
    this.dir = dir.toAbsolutePath().normalize();
    this.maxBytes = maxBytes;
    this.ownersOnlyRoot = ownersOnlyRoot;
  }

  private void makeDir() throws IOException {
    if (ownersOnlyRoot != null && !rootChecked) {
      Optional<String> problem = OwnerOnlyFolders.check(ownersOnlyRoot);
      if (problem.isPresent()) {
        throw new IOException("joblib4j: this machine's copies of store files cannot be kept in " + dir + ": "
            + problem.get() + "; or give the store option " + HadoopStoreOptions.LOCAL_CACHE_DIR
            + " (or JOBLIB4J_LOCAL_CACHE) a folder of your own");
      }
      rootChecked = true;
    }
    Files.createDirectories(dir);
  }

  /** Opens the remote file's content. */
  @FunctionalInterface
  interface Source {
    InputStream open() throws IOException;
  }

  /**
   * The local copy of a remote file.
   *
   * @param identity what makes the content unique (store path, publication, size)
   * @param name the remote file's name, kept at the end of the copy's name for people looking at the folder
   * @param crc32c the expected CRC32C (8 hex digits), or null if the store recorded none
   * @param where the remote file, for error messages
   */
  Path get(String identity, String name, long size, String crc32c, String where, Source source) throws IOException {
    makeDir();
    Path copy = dir.resolve(hash(identity) + "-" + name.replaceAll("[^A-Za-z0-9._-]", "_"));
    Object lock = DOWNLOADING.computeIfAbsent(copy.toString(), k -> new Object());
    synchronized (lock) {
      if (usable(copy, size, crc32c)) {
        recordUse(copy);
        return copy;
      }
      try (FileChannel lockFile = FileChannel.open(dir.resolve(copy.getFileName() + ".lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = lockFile.lock()) {
        if (!usable(copy, size, crc32c)) { // another JVM may have fetched it while we waited
          download(copy, size, crc32c, where, source);
        }
      }
      recordUse(copy);
    }
    evict(copy);
    return copy;
  }

  private boolean usable(Path copy, long size, String crc32c) throws IOException {
    try {
      if (Files.size(copy) != size) {
        Files.deleteIfExists(copy);
        return false;
      }
    } catch (NoSuchFileException e) {
      return false;
    }
    String key = copy + "|" + size;
    if (crc32c == null || VERIFIED.contains(key)) {
      return true;
    }
    if (!crc32c.equals(crcOf(copy))) {
      Files.deleteIfExists(copy); // damaged on this disk: fetch it again
      return false;
    }
    VERIFIED.add(key);
    return true;
  }

  private void download(Path copy, long size, String crc32c, String where, Source source) throws IOException {
    Path part = dir.resolve("." + copy.getFileName() + "." + UUID.randomUUID() + ".part");
    try {
      CRC32C crc = new CRC32C();
      long n = 0;
      try (InputStream in = source.open();
          FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        byte[] buf = new byte[BUFFER];
        for (int r; (r = in.read(buf)) > 0; ) {
          crc.update(buf, 0, r);
          ByteBuffer b = ByteBuffer.wrap(buf, 0, r);
          while (b.hasRemaining()) {
            out.write(b);
          }
          n += r;
        }
        out.force(false);
      }
      String actual = CountingCrcOutputStream.hex(crc.getValue());
      if (n != size || crc32c != null && !crc32c.equals(actual)) {
        throw new CorruptFileException(where, "its content (" + n + " bytes, CRC32C " + actual + ") does not match"
            + " what its writer recorded (" + size + " bytes" + (crc32c == null ? "" : ", CRC32C " + crc32c) + ")");
      }
      Files.move(part, copy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      VERIFIED.add(copy + "|" + size);
    } finally {
      Files.deleteIfExists(part);
    }
  }

  /** Marks a copy as just used (its access time), at most once a minute. */
  private static void recordUse(Path copy) {
    try {
      BasicFileAttributeView view = Files.getFileAttributeView(copy, BasicFileAttributeView.class);
      long now = System.currentTimeMillis();
      if (now - view.readAttributes().lastAccessTime().toMillis() > RECENT_MILLIS) {
        view.setTimes(null, FileTime.fromMillis(now), null);
      }
    } catch (IOException e) {
      // recency only orders eviction
    }
  }

  /** Deletes least recently used copies until the folder is under its bound; never {@code keep}. */
  private void evict(Path keep) {
    record Copy(Path path, long size, long used) {}
    List<Copy> copies = new ArrayList<>();
    long total = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String n = f.getFileName().toString();
        if (n.startsWith(".") || n.endsWith(".lock")) {
          continue;
        }
        try {
          BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
          copies.add(new Copy(f, a.size(), a.lastAccessTime().toMillis()));
          total += a.size();
        } catch (IOException e) {
          // evicted by another JVM meanwhile
        }
      }
    } catch (IOException e) {
      return;
    }
    if (total <= maxBytes) {
      return;
    }
    copies.sort(Comparator.comparingLong(Copy::used));
    long now = System.currentTimeMillis();
    for (Copy c : copies) {
      if (total <= maxBytes) {
        break;
      }
      if (c.path().equals(keep) || now - c.used() < RECENT_MILLIS) {
        continue;
      }
      try {
        Files.deleteIfExists(c.path());
        Files.deleteIfExists(dir.resolve(c.path().getFileName() + ".lock"));
        total -= c.size();
      } catch (IOException e) {
        // in use on a system that cannot delete mapped files: keep it
      }
    }
  }

  private static String crcOf(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[BUFFER];
      for (int r; (r = in.read(buf)) > 0; ) {
        crc.update(buf, 0, r);
      }
    }
    return CountingCrcOutputStream.hex(crc.getValue());
  }

  private static String hash(String identity) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
