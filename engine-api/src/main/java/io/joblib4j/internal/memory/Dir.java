package io.joblib4j.internal.memory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An open folder of the local store, whose children are reached by name only — never through a
 * symbolic link, whatever is swapped in under the root while the store works.
 *
 * <p>On Linux and macOS a {@code Dir} holds a {@link SecureDirectoryStream}: a file descriptor of the
 * folder, and every operation is relative to it ({@code openat}, {@code fstatat}, {@code unlinkat},
 * {@code renameat} with {@code O_NOFOLLOW}/{@code AT_SYMLINK_NOFOLLOW}), so renaming or replacing a
 * folder on the way after it was opened cannot redirect the operation. What the JDK's secure stream
 * does not offer, this class builds from what it does (see {@link LocalTree}): there is no {@code
 * mkdirat} (folders below the root are made at the root and renamed into place), no {@code fsync}
 * of the folder itself (its {@code "."} is opened as a channel), and a stream iterates once (a
 * second listing reopens {@code "."}). Elsewhere (Windows) it falls back to paths, checking each
 * child with {@code lstat} before using it: links planted in advance are refused, a swap racing an
 * operation is not.
 */
abstract class Dir implements Closeable {
  static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

  /** Where this folder is, for messages. */
  abstract Path path();

  /** The child {@code name}'s attributes, never following a link; null if there is none. */
  abstract BasicFileAttributes stat(String name) throws IOException;

  /** Opens the child folder {@code name}. */
  abstract Dir openDir(String name) throws IOException;

  /**
   * Opens the child folder {@code name} whose attributes (not following links) the caller has just
   * read: a listing saves the second {@code stat}. A link swapped in since is still refused ({@code
   * O_NOFOLLOW}).
   */
  Dir openListedDir(String name, BasicFileAttributes listed) throws IOException {
    return openDir(name);
  }

  /** Opens the child file {@code name} with {@code options} (never following a link). */
  abstract FileChannel openFile(String name, Set<? extends OpenOption> options) throws IOException;

  /** Renames the child {@code name} to {@code toName} in {@code to}, atomically. */
  abstract void move(String name, Dir to, String toName) throws IOException;

  /** Removes the child file (or link: the link itself) {@code name}. */
  abstract void deleteFile(String name) throws IOException;

  /** Removes the empty child folder {@code name}. */
  abstract void deleteDir(String name) throws IOException;

  /** Sets the child {@code name}'s modification time. */
  abstract void setModifiedTime(String name, FileTime time) throws IOException;

  /** The names of the children. */
  abstract List<String> names() throws IOException;

  /** Forces the folder's own entries (names created, renamed or removed in it) to disk, where possible. */
  abstract void force();

  /** The identity of the folder (device and inode), or null where unknown. */
  abstract Object fileKey() throws IOException;

  /**
   * A rename onto a folder that holds something fails with ENOTEMPTY, which the JDK reports as a
   * plain {@code FileSystemException} ("Directory not empty"), not as the
   * {@code DirectoryNotEmptyException} callers catch to learn that another writer won: made that
   * here, so that a lost race is never mistaken for a failing store.
   */
  static IOException occupiedOrRethrow(FileSystemException e, Path target) {
    if (e.getClass() == FileSystemException.class && "Directory not empty".equals(e.getReason())) {
      DirectoryNotEmptyException occupied = new DirectoryNotEmptyException(target.toString());
      occupied.initCause(e);
      return occupied;
    }
    return e;
  }

  /** Opens the folder {@code path} (trusted: it and its ancestors are followed as they are). */
  static Dir open(Path path) throws IOException {
    DirectoryStream<Path> ds = Files.newDirectoryStream(path);
    if (ds instanceof SecureDirectoryStream<Path> secure) {
      return new Secure(path, secure);
    }
    ds.close();
    return new ByPath(path);
  }

  /** Opens {@code path} by paths only, as on a platform without {@code openat} (tests use it). */
  static Dir openByPath(Path path) throws IOException {
    if (!Files.isDirectory(path)) {
      throw new NotDirectoryException(path.toString());
    }
    return new ByPath(path);
  }

  /**
   * Whether an open with {@code NOFOLLOW} failed because its last name was a symbolic link (ELOOP).
   * The error itself says so; a look at the name afterwards may not, as the link may be gone again
   * (a thread swapping a folder for a link and back, SymlinkSwapTest). The JDK reports ELOOP as this
   * reason, in these words, on every Unix it runs on.
   */
  static boolean refusedALink(FileSystemException e) {
    String reason = e.getReason();
    return reason != null && reason.endsWith("unable to access attributes of symbolic link");
  }

  /** The refusal every operation meeting a link gives. */
  static LinkRefusedException linkRefused(Path link) {
    return new LinkRefusedException("refusing to follow the symbolic link " + link + " inside the cache folder:"
        + " joblib4j never follows links under a cache's root. Remove the link (the cache recreates what it needs)");
  }

  /** A link met where a folder or file of the cache was expected: never followed, and never Memory's. */
  static final class LinkRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    LinkRefusedException(String message) {
      super(message);
    }
  }

  /** A child that is neither a folder nor a regular file (a FIFO, a device) where one was expected. */
  static IOException notAFileOrFolder(Path p) {
    return new IOException(p + " inside the cache folder is neither a regular file nor a folder; remove it");
  }

  static Set<OpenOption> noFollow(Set<? extends OpenOption> options) {
    Set<OpenOption> o = new HashSet<>(options);
    o.add(LinkOption.NOFOLLOW_LINKS);
    return o;
  }

  /** A folder held by a file descriptor; every operation is relative to it. */
  private static final class Secure extends Dir {
    private final Path path;
    private final SecureDirectoryStream<Path> ds;
    private boolean iterated;

    Secure(Path path, SecureDirectoryStream<Path> ds) {
      this.path = path;
      this.ds = ds;
    }

    private Path name(String name) {
      return path.getFileSystem().getPath(name);
    }

    @Override
    Path path() {
      return path;
    }

    @Override
    BasicFileAttributes stat(String name) throws IOException {
      try {
        return ds.getFileAttributeView(name(name), BasicFileAttributeView.class, NOFOLLOW).readAttributes();
      } catch (NoSuchFileException e) {
        return null;
      }
    }

    @Override
    Dir openDir(String name) throws IOException {
      // stat first: opening a FIFO planted under the root would block; a link is refused by name
      BasicFileAttributes a = stat(name);
      if (a == null) {
        throw new NoSuchFileException(path.resolve(name).toString());
      }
      checkFolder(a, name);
      try {
        return new Secure(path.resolve(name), (SecureDirectoryStream<Path>) ds.newDirectoryStream(name(name), NOFOLLOW));
      } catch (FileSystemException e) {
        throw swappedOrRethrow(name, e); // a link swapped in since the stat: O_NOFOLLOW refused it
      }
    }

    @Override
    Dir openListedDir(String name, BasicFileAttributes listed) throws IOException {
      if (listed == null || !listed.isDirectory() || listed.isSymbolicLink()) {
        return openDir(name);
      }
      try {
        return new Secure(path.resolve(name), (SecureDirectoryStream<Path>) ds.newDirectoryStream(name(name), NOFOLLOW));
      } catch (FileSystemException e) {
        throw swappedOrRethrow(name, e);
      }
    }

    @Override
    FileChannel openFile(String name, Set<? extends OpenOption> options) throws IOException {
      if (!options.contains(StandardOpenOption.CREATE_NEW)) {
        BasicFileAttributes a = stat(name);
        if (a != null && !a.isRegularFile()) {
          throw a.isSymbolicLink() ? linkRefused(path.resolve(name))
              : a.isDirectory() ? new IOException(path.resolve(name) + " is a folder, not a file")
              : notAFileOrFolder(path.resolve(name));
        }
      }
      try {
        // the JDK's secure stream makes its channels with the FileChannel factory; checked, not assumed
        if (ds.newByteChannel(name(name), noFollow(options)) instanceof FileChannel ch) {
          return ch;
        }
        throw new IOException("this JDK's directory streams do not open file channels: " + path.resolve(name));
      } catch (FileSystemException e) {
        throw swappedOrRethrow(name, e);
      }
    }

    @Override
    void move(String name, Dir to, String toName) throws IOException {
      if (!(to instanceof Secure target)) {
        throw new IllegalArgumentException("cannot move between folder handles of different kinds");
      }
      try {
        ds.move(name(name), target.ds, name(toName));
      } catch (FileSystemException e) {
        throw occupiedOrRethrow(e, target.path().resolve(toName));
      }
    }

    @Override
    void deleteFile(String name) throws IOException {
      ds.deleteFile(name(name));
    }

    @Override
    void deleteDir(String name) throws IOException {
      ds.deleteDirectory(name(name));
    }

    @Override
    void setModifiedTime(String name, FileTime time) throws IOException {
      try {
        ds.getFileAttributeView(name(name), BasicFileAttributeView.class, NOFOLLOW).setTimes(time, null, null);
      } catch (FileSystemException e) {
        throw swappedOrRethrow(name, e);
      }
    }

    @Override
    List<String> names() throws IOException {
      List<String> out = new ArrayList<>();
      boolean first;
      synchronized (this) { // handles are shared by threads (the root's), and a stream iterates once
        first = !iterated;
        iterated = true;
      }
      if (first) {
        for (Path p : ds) {
          out.add(p.getFileName().toString());
        }
        return out;
      }
      try (DirectoryStream<Path> again = ds.newDirectoryStream(name("."), NOFOLLOW)) {
        for (Path p : again) {
          out.add(p.getFileName().toString());
        }
      }
      return out;
    }

    @Override
    void force() {
      try (FileChannel ch = (FileChannel) ds.newByteChannel(name("."), Set.of(StandardOpenOption.READ))) {
        ch.force(true);
      } catch (IOException | RuntimeException e) {
        // some file systems cannot open or sync a folder; renames are still atomic there
      }
    }

    @Override
    Object fileKey() throws IOException {
      return ds.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
    }

    @Override
    public void close() throws IOException {
      ds.close();
    }

    private void checkFolder(BasicFileAttributes a, String name) throws IOException {
      if (a.isSymbolicLink()) {
        throw linkRefused(path.resolve(name));
      }
      if (!a.isDirectory()) {
        throw a.isRegularFile() ? new NotDirectoryException(path.resolve(name).toString()) : notAFileOrFolder(path.resolve(name));
      }
    }

    private IOException swappedOrRethrow(String name, FileSystemException e) throws IOException {
      if (refusedALink(e)) {
        return linkRefused(path.resolve(name));
      }
      // other errors: a link there now is the cause (a stat of it again, since the error says less)
      BasicFileAttributes now = stat(name);
      if (now != null && now.isSymbolicLink()) {
        return linkRefused(path.resolve(name));
      }
      return e;
    }
  }

  /** A folder by its path, for platforms without directory file descriptors. */
  private static final class ByPath extends Dir {
    private final Path path;

    ByPath(Path path) {
      this.path = path;
    }

    @Override
    Path path() {
      return path;
    }

    @Override
    BasicFileAttributes stat(String name) throws IOException {
      try {
        return Files.readAttributes(path.resolve(name), BasicFileAttributes.class, NOFOLLOW);
      } catch (NoSuchFileException e) {
        return null;
      }
    }

    @Override
    Dir openDir(String name) throws IOException {
      BasicFileAttributes a = stat(name);
      if (a == null) {
        throw new NoSuchFileException(path.resolve(name).toString());
      }
      if (a.isSymbolicLink()) {
        throw linkRefused(path.resolve(name));
      }
      if (!a.isDirectory()) {
        throw new NotDirectoryException(path.resolve(name).toString());
      }
      return new ByPath(path.resolve(name));
    }

    @Override
    FileChannel openFile(String name, Set<? extends OpenOption> options) throws IOException {
      BasicFileAttributes a = stat(name);
      if (a != null && a.isSymbolicLink()) {
        throw linkRefused(path.resolve(name));
      }
      return FileChannel.open(path.resolve(name), noFollow(options));
    }

    @Override
    void move(String name, Dir to, String toName) throws IOException {
      try {
        Files.move(path.resolve(name), to.path().resolve(toName), StandardCopyOption.ATOMIC_MOVE);
      } catch (FileSystemException e) {
        throw occupiedOrRethrow(e, to.path().resolve(toName));
      }
    }

    @Override
    void deleteFile(String name) throws IOException {
      Files.delete(path.resolve(name));
    }

    @Override
    void deleteDir(String name) throws IOException {
      Files.delete(path.resolve(name));
    }

    @Override
    void setModifiedTime(String name, FileTime time) throws IOException {
      Files.getFileAttributeView(path.resolve(name), BasicFileAttributeView.class, NOFOLLOW).setTimes(time, null, null);
    }

    @Override
    List<String> names() throws IOException {
      List<String> out = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(path)) {
        for (Path p : ds) {
          out.add(p.getFileName().toString());
        }
      }
      return out;
    }

    @Override
    void force() {
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
        ch.force(true);
      } catch (IOException | RuntimeException e) {
        // as above
      }
    }

    @Override
    Object fileKey() throws IOException {
      return Files.readAttributes(path, BasicFileAttributes.class, NOFOLLOW).fileKey();
    }

    @Override
    public void close() {}
  }
}
