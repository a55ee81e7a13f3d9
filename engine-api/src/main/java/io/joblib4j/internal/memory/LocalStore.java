package io.joblib4j.internal.memory;

import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.StorePaths;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The built-in store on a local (or NFS) folder.
 *
 * <p>An entry is published by writing its files into a temporary sibling folder {@code
 * .tmp-<name>-<uuid>}, forcing each file and the folder to disk, and renaming the folder onto the
 * entry's name in one {@code rename(2)}: the rename is atomic, and it fails when the entry exists
 * already, which makes publishing create-if-absent. The parent folder is forced after the rename
 * so the entry survives a power cut. Symbolic links inside the root are never followed.
 */
public final class LocalStore implements Store {
  static final String TEMP_PREFIX = ".tmp-";
  private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
  private final Path root;
  private final java.util.Set<Path> realFolders = java.util.concurrent.ConcurrentHashMap.newKeySet();

  public LocalStore(Path root) throws IOException {
    Path absolute = root.toAbsolutePath().normalize();
    Files.createDirectories(absolute);
    this.root = absolute.toRealPath();
  }

  /** The root folder. */
  public Path root() {
    return root;
  }

  @Override
  public URI location() {
    return root.toUri();
  }

  @Override
  public Optional<InputStream> open(String path) throws IOException {
    Path file = resolve(path);
    try {
      FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
      return Optional.of(Channels.newInputStream(ch));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public Optional<Path> localFile(String path) throws IOException {
    Path file = resolve(path);
    return Files.isRegularFile(file, NOFOLLOW) ? Optional.of(file) : Optional.empty();
  }

  @Override
  public Publication publish(String entry, List<EntryFile> files) throws IOException {
    Path target = resolve(entry);
    if (Files.exists(target, NOFOLLOW)) {
      return Publication.ALREADY_PRESENT;
    }
    Path parent = target.getParent();
    Files.createDirectories(parent);
    Path temp = parent.resolve(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
    Files.createDirectory(temp);
    try {
      for (EntryFile f : files) {
        writeDurably(temp.resolve(f.name()), f.writer());
      }
      forceDirectory(temp);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        return Publication.ALREADY_PRESENT; // another writer won the rename
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("the cache folder's file system cannot rename atomically: " + root, e);
      } catch (IOException e) {
        if (Files.exists(target, NOFOLLOW)) {
          return Publication.ALREADY_PRESENT;
        }
        throw e;
      }
      forceDirectory(parent);
      return Publication.PUBLISHED;
    } finally {
      if (Files.exists(temp, NOFOLLOW)) {
        deleteTree(temp);
      }
    }
  }

  @Override
  public void replace(String path, byte[] content) throws IOException {
    Path target = resolve(path);
    Files.createDirectories(target.getParent());
    Path temp = target.resolveSibling(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
    try {
      writeDurably(temp, out -> out.write(content));
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      forceDirectory(target.getParent());
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public boolean exists(String path) throws IOException {
    return Files.exists(resolve(path), NOFOLLOW);
  }

  @Override
  public List<StoreFile> list(String dir) throws IOException {
    return walk(dir, Integer.MAX_VALUE);
  }

  @Override
  public List<StoreFile> children(String dir) throws IOException {
    return walk(dir, 1);
  }

  /** What is under {@code dir}, {@code depth} levels deep, temporaries and links left out. */
  private List<StoreFile> walk(String dir, int depth) throws IOException {
    Path start = resolve(dir);
    List<StoreFile> out = new ArrayList<>();
    if (!Files.isDirectory(start, NOFOLLOW)) {
      return out;
    }
    Files.walkFileTree(start, java.util.EnumSet.noneOf(java.nio.file.FileVisitOption.class), depth, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
        if (d.getFileName().toString().startsWith(TEMP_PREFIX)) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        if (!d.equals(start)) {
          out.add(storeFile(d, attrs));
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
        // folders at the depth limit come here too; links (to anything) never count
        if ((attrs.isRegularFile() || attrs.isDirectory()) && !f.getFileName().toString().startsWith(TEMP_PREFIX)) {
          out.add(storeFile(f, attrs));
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path f, IOException e) {
        return FileVisitResult.CONTINUE; // deleted concurrently: not an error
      }
    });
    return out;
  }

  @Override
  public void touch(String entry, Instant accessedAt) throws IOException {
    Path dir = resolve(entry);
    try {
      Files.setLastModifiedTime(dir, FileTime.from(accessedAt));
    } catch (NoSuchFileException e) {
      // deleted concurrently (reduceSize, clear): nothing to record
    }
  }

  @Override
  public void delete(String path) throws IOException {
    Path target = resolve(path);
    realFolders.removeIf(f -> f.startsWith(target));
    if (target.equals(root)) {
      try (Stream<Path> children = Files.list(root)) {
        for (Path child : (Iterable<Path>) children::iterator) {
          deleteTree(child);
        }
      }
      return;
    }
    deleteTree(target);
  }

  @Override
  public int sweep(Duration age) throws IOException {
    Instant cutoff = Instant.now().minus(age);
    List<Path> stale = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
        if (d.getFileName() != null && d.getFileName().toString().startsWith(TEMP_PREFIX)) {
          if (attrs.lastModifiedTime().toInstant().isBefore(cutoff)) {
            stale.add(d);
          }
          return FileVisitResult.SKIP_SUBTREE;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
        if (f.getFileName().toString().startsWith(TEMP_PREFIX) && attrs.lastModifiedTime().toInstant().isBefore(cutoff)) {
          stale.add(f);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path f, IOException e) {
        return FileVisitResult.CONTINUE;
      }
    });
    for (Path p : stale) {
      deleteTree(p);
    }
    return stale.size();
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "LocalStore[" + root + "]";
  }

  /**
   * The absolute path of a checked relative path, refusing to pass through symbolic links. Folders
   * found to be real folders are remembered (until deleted through this store), so that a cache hit
   * does not pay an lstat per path segment; the last segment is always checked.
   */
  private Path resolve(String path) throws IOException {
    StorePaths.check(path);
    Path p = path.isEmpty() ? root : root.resolve(path).normalize();
    if (!p.startsWith(root)) {
      throw new IllegalArgumentException("store path escapes the root: " + path);
    }
    List<Path> checked = new ArrayList<>();
    for (Path q = p; q != null && !q.equals(root); q = q.getParent()) {
      if (q != p && realFolders.contains(q)) {
        break;
      }
      if (Files.isSymbolicLink(q)) {
        throw new IOException("refusing to follow the symbolic link " + q + " inside the cache folder");
      }
      if (q != p) {
        checked.add(q);
      }
    }
    realFolders.addAll(checked);
    return p;
  }

  private StoreFile storeFile(Path p, BasicFileAttributes attrs) {
    return new StoreFile(relative(p), attrs.isDirectory(), attrs.isDirectory() ? 0 : attrs.size(),
        attrs.lastModifiedTime().toInstant());
  }

  private String relative(Path p) {
    return root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
  }

  private static void writeDurably(Path file, EntryFile.Writer writer) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
        LinkOption.NOFOLLOW_LINKS)) {
      OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
      writer.writeTo(new NonClosing(out));
      out.flush();
      ch.force(true);
    }
  }

  private static void forceDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some file systems cannot open or sync a folder; the rename itself is still atomic
    }
  }

  /** Deletes a file or a whole tree without following links; what is already gone is fine. */
  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p, NOFOLLOW)) {
      return;
    }
    Files.walkFileTree(p, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
        Files.deleteIfExists(f);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        try {
          Files.deleteIfExists(d);
        } catch (DirectoryNotEmptyException raced) {
          deleteTree(d); // a writer added a file meanwhile
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** Keeps a writer from closing the store's stream. */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
