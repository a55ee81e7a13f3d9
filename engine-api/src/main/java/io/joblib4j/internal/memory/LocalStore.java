package io.joblib4j.internal.memory;

import io.joblib4j.internal.memory.LocalTree.Interleaving;
import io.joblib4j.internal.memory.LocalTree.Opened;
import io.joblib4j.internal.memory.LocalTree.Step;
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
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The built-in store on a local (or NFS) folder.
 *
 * <p>An entry is published by writing its files into a temporary folder {@code .tmp-<name>-<uuid>}
 * at the root, forcing each file and the folder to disk, and renaming the folder onto the entry's
 * name in the entry's parent in one {@code renameat(2)}: the rename is atomic, and it fails when the
 * entry exists already, which makes publishing create-if-absent. The parent folder is forced after
 * the rename so the entry survives a power cut. A deleted entry first leaves its place in one
 * rename, so a reader sees it whole or not at all.
 *
 * <p><b>Links.</b> Nothing under the root is ever reached through a symbolic link, at any time:
 * every operation walks from the held root one name at a time through open folder handles ({@link
 * LocalTree}, {@link Dir}) with {@code O_NOFOLLOW}, and re-opens the way at every call, so a folder
 * swapped for a link after it was used is refused at the next call (an {@link IOException} saying
 * so), and nothing is created, read or deleted outside the root. A link found while listing is
 * skipped, and a link deleted is unlinked itself. The root folder and its ancestors are trusted.
 * One exception reads metadata only: {@link #stamp}, a single {@code stat} of a whole path, with
 * which a hit checks that an output whose bytes it read before through the handles is still there
 * unchanged ({@link OutputCache}); no bytes are read through it.
 */
public final class LocalStore implements Store {
  static final String TEMP_PREFIX = LocalTree.TEMP_PREFIX;
  private static final Set<StandardOpenOption> READ = Set.of(StandardOpenOption.READ);
  private static final Set<StandardOpenOption> READ_WRITE = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE);
  private static final Set<StandardOpenOption> NEW_FILE = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  private final Path root;
  private final LocalTree tree;
  /** Whether the file system tells a file's inode and change time ({@link #stamp}). */
  private final boolean stamps;

  /**
   * Opens (creating if needed) the store at the folder {@code root}.
   *
   * @throws IOException if {@code root} (or a folder on its way) is a file, or cannot be created
   */
  public LocalStore(Path root) throws IOException {
    this(root, false, Interleaving.NONE);
  }

  /** As {@link #LocalStore(Path)}; tests pick path-only folder handles and interleave steps. */
  LocalStore(Path root, boolean byPath, Interleaving hook) throws IOException {
    Path absolute = root.toAbsolutePath().normalize();
    this.root = createRoot(absolute);
    this.tree = new LocalTree(this.root, byPath, hook);
    this.stamps = !byPath && this.root.getFileSystem().supportedFileAttributeViews().contains("unix");
  }

  private static Path createRoot(Path absolute) throws IOException {
    if (Files.isRegularFile(absolute)) {
      throw new IOException(absolute + " is a file, not a folder; give Memory a folder (it is created if"
          + " missing), not a file");
    }
    try {
      Files.createDirectories(absolute);
    } catch (FileAlreadyExistsException e) {
      throw new IOException("cannot create the folder " + absolute + ": " + e.getFile() + " exists and is"
          + " not a folder");
    }
    return absolute.toRealPath();
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
    return openChannel(path, false).map(Channels::newInputStream);
  }

  @Override
  public Optional<Path> localFile(String path) throws IOException {
    return attributes(path).filter(BasicFileAttributes::isRegularFile).map(a -> root.resolve(path));
  }

  /**
   * Opens the file {@code path} reached without following any link, for reading (and for a private
   * mapping, which needs a writable channel, with {@code writable}); empty if it does not exist.
   * What Memory maps, so that a mapped hit reads the file inside the root, not what a path names by
   * the time it is opened again.
   */
  Optional<FileChannel> openChannel(String path, boolean writable) throws IOException {
    String[] s = segments(path);
    if (s.length == 0) {
      return Optional.empty();
    }
    for (int attempt = 0; ; attempt++) {
      try (Opened parent = tree.open(s, s.length - 1, false, path)) {
        tree.hook.at(Step.READ_OPENED, path);
        return Optional.of(parent.dir.openFile(s[s.length - 1], writable ? READ_WRITE : READ));
      } catch (NoSuchFileException | NotDirectoryException e) {
        if (attempt > 0 || !tree.checkRoot()) {
          return Optional.empty();
        }
      }
    }
  }

  /** Whether {@link #stamp} works here (it needs the file system's {@code unix} attribute view). */
  boolean stamps() {
    return stamps;
  }

  /**
   * The stamp of the regular file {@code path}, from one {@code stat} of its whole path; null if no
   * regular file is there. Unlike every other operation here, the kernel resolves the path, so a
   * link swapped in for a folder on the way is followed: a stamp only tells whether a file read
   * before (through handles that never follow links) is still in its place unchanged, and nothing
   * is ever read through it. A cache hit's single system call ({@link OutputCache}).
   *
   * @throws IOException if the stat fails otherwise (a folder on the way is a file, a permission)
   */
  FileStamp stamp(String path) throws IOException {
    StorePaths.check(path);
    try {
      return FileStamp.of(Files.readAttributes(root.resolve(path), FileStamp.ATTRIBUTES, Dir.NOFOLLOW));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The attributes of {@code path}, reached without following any link; empty if it does not exist. */
  Optional<BasicFileAttributes> attributes(String path) throws IOException {
    String[] s = segments(path);
    if (s.length == 0) {
      return Optional.of(Files.readAttributes(root, BasicFileAttributes.class));
    }
    try (Opened parent = tree.open(s, s.length - 1, false, path)) {
      BasicFileAttributes a = parent.dir.stat(s[s.length - 1]);
      if (a != null && a.isSymbolicLink()) {
        throw Dir.linkRefused(root.resolve(path));
      }
      return Optional.ofNullable(a);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Optional.empty();
    }
  }

  @Override
  public Publication publish(String entry, List<EntryFile> files) throws IOException {
    String[] s = segments(entry);
    if (s.length == 0) {
      throw new IllegalArgumentException("the store's root cannot be an entry");
    }
    String name = s[s.length - 1];
    tree.checkRoot();
    try (Opened parent = tree.open(s, s.length - 1, true, entry)) {
      Dir folder = parent.dir;
      BasicFileAttributes existing = folder.stat(name);
      if (existing != null) {
        if (existing.isSymbolicLink()) {
          throw Dir.linkRefused(folder.path().resolve(name));
        }
        return Publication.ALREADY_PRESENT;
      }
      tree.hook.at(Step.FOLDER_OPENED, entry);
      Dir root = tree.root();
      String temp = tree.newTemp(name);
      try {
        tree.hook.at(Step.TEMP_CREATED, entry);
        Object written;
        try (Dir t = root.openDir(temp)) {
          for (EntryFile f : files) {
            writeDurably(t, f.name(), f.writer());
            tree.hook.at(Step.FILE_WRITTEN, entry + "/" + f.name());
          }
          t.force();
          written = t.fileKey();
        }
        tree.hook.at(Step.BEFORE_RENAME, entry);
        // re-checked at the last moment: the name at the root must still be the folder just written
        BasicFileAttributes mine = root.stat(temp);
        if (mine == null || !mine.isDirectory() || !Objects.equals(mine.fileKey(), written)) {
          throw new IOException("the temporary folder " + root.path().resolve(temp) + " was replaced while an"
              + " entry was written into it; the entry was not published");
        }
        try {
          try {
            root.move(temp, folder, name);
          } catch (NoSuchFileException parentGone) {
            // the entry's folder was deleted (a clear) since it was opened: once more, into a new one
            try (Opened again = tree.open(s, s.length - 1, true, entry)) {
              root.move(temp, again.dir, name);
            }
          }
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
          return Publication.ALREADY_PRESENT; // another writer won the rename
        } catch (AtomicMoveNotSupportedException e) {
          throw new IOException("the cache folder's file system cannot rename atomically: " + this.root, e);
        } catch (IOException e) {
          BasicFileAttributes now = folder.stat(name);
          if (now == null) {
            // what stood in the way (a claim being released, an entry being pruned) has gone: once more
            try {
              root.move(temp, folder, name);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException again) {
              return Publication.ALREADY_PRESENT;
            } catch (IOException again) {
              e.addSuppressed(again);
              throw e;
            }
            folder.force();
            return Publication.PUBLISHED;
          }
          if (now.isSymbolicLink()) {
            throw Dir.linkRefused(folder.path().resolve(name));
          }
          return Publication.ALREADY_PRESENT;
        }
        folder.force();
        return Publication.PUBLISHED;
      } finally {
        if (root.stat(temp) != null) {
          tree.remove(root, temp); // a link swapped in for it is unlinked, not followed
        }
      }
    }
  }

  @Override
  public void replace(String path, byte[] content) throws IOException {
    String[] s = segments(path);
    if (s.length == 0) {
      throw new IllegalArgumentException("the store's root cannot be replaced");
    }
    String name = s[s.length - 1];
    tree.checkRoot();
    try (Opened parent = tree.open(s, s.length - 1, true, path)) {
      Dir root = tree.root();
      String temp = LocalTree.tempFileName(name);
      try {
        writeDurably(root, temp, out -> out.write(content));
        BasicFileAttributes existing = parent.dir.stat(name);
        if (existing != null && existing.isDirectory()) {
          throw new IOException("cannot replace " + parent.dir.path().resolve(name) + ": it is a folder");
        }
        root.move(temp, parent.dir, name); // replaces atomically; a link there is replaced, not followed
        parent.dir.force();
      } finally {
        if (root.stat(temp) != null) {
          root.deleteFile(temp);
        }
      }
    }
  }

  @Override
  public boolean exists(String path) throws IOException {
    return segments(path).length == 0 || attributes(path).isPresent();
  }

  @Override
  public List<StoreFile> list(String dir) throws IOException {
    return walk(dir, Integer.MAX_VALUE);
  }

  @Override
  public List<StoreFile> children(String dir) throws IOException {
    return walk(dir, 1);
  }

  /** What is under {@code dir}, {@code depth} levels deep; temporaries and links left out. */
  private List<StoreFile> walk(String dir, int depth) throws IOException {
    String[] s = segments(dir);
    try (Opened start = tree.open(s, s.length, false, dir)) {
      return LocalWalk.walk(tree, start.dir, dir, depth);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return new ArrayList<>(); // nothing there
    }
  }

  @Override
  public void touch(String entry, Instant accessedAt) throws IOException {
    String[] s = segments(entry);
    if (s.length == 0) {
      return;
    }
    try (Opened parent = tree.open(s, s.length - 1, false, entry)) {
      parent.dir.setModifiedTime(s[s.length - 1], FileTime.from(accessedAt));
    } catch (NoSuchFileException | NotDirectoryException e) {
      // deleted concurrently (reduceSize, clear): nothing to record
    }
  }

  @Override
  public void delete(String path) throws IOException {
    String[] s = segments(path);
    if (s.length == 0) {
      Dir root = tree.root();
      for (String child : root.names()) {
        tree.remove(root, child);
      }
      return;
    }
    try (Opened parent = tree.open(s, s.length - 1, false, path)) {
      tree.remove(parent.dir, s[s.length - 1]);
    } catch (NoSuchFileException | NotDirectoryException e) {
      // absent is fine
    }
  }

  /** {@code rmdir}: refused by the file system while anything at all is inside, a link included. */
  @Override
  public boolean deleteIfEmpty(String dir) throws IOException {
    String[] s = segments(dir);
    if (s.length == 0) {
      return false; // the cache's own root stays
    }
    try (Opened parent = tree.open(s, s.length - 1, false, dir)) {
      parent.dir.deleteDir(s[s.length - 1]);
      return true;
    } catch (NoSuchFileException e) {
      return true;
    } catch (DirectoryNotEmptyException | NotDirectoryException e) {
      return false; // something is in it, or it is a file or a link: not an empty folder of ours
    }
  }

  /**
   * Removes temporaries older than {@code age}: those at the root (where writers put them), and
   * those beside entries in the folders at the root (where joblib4j 0.1 put them).
   */
  @Override
  public int sweep(Duration age) throws IOException {
    Instant cutoff = Instant.now().minus(age);
    Dir root = tree.root();
    int removed = 0;
    for (String name : root.names()) {
      BasicFileAttributes a = root.stat(name);
      if (a == null) {
        continue;
      }
      if (name.startsWith(TEMP_PREFIX)) {
        if (a.lastModifiedTime().toInstant().isBefore(cutoff)) {
          tree.remove(root, name);
          removed++;
        }
      } else if (a.isDirectory()) {
        removed += sweepLegacy(root, name, cutoff);
      }
    }
    return removed;
  }

  /** The temporaries {@link #sweep} would remove: at the root, and beside entries in the folders at the root. */
  @Override
  public List<StoreFile> temporaries(Duration age) throws IOException {
    Instant cutoff = Instant.now().minus(age);
    Dir root = tree.root();
    List<StoreFile> out = new ArrayList<>();
    for (String name : root.names()) {
      BasicFileAttributes a = root.stat(name);
      if (a == null || a.isSymbolicLink()) {
        continue;
      }
      if (name.startsWith(TEMP_PREFIX)) {
        if (a.lastModifiedTime().toInstant().isBefore(cutoff)) {
          out.add(new StoreFile(name, a.isDirectory(), a.isDirectory() ? 0 : a.size(), a.lastModifiedTime().toInstant()));
        }
      } else if (a.isDirectory()) {
        Dir d;
        try {
          d = root.openDir(name);
        } catch (IOException goneOrSwapped) {
          continue;
        }
        try (d) {
          for (String child : d.names()) {
            BasicFileAttributes c = child.startsWith(TEMP_PREFIX) && !child.equals(LocalTree.KEEP) ? d.stat(child) : null;
            if (c != null && !c.isSymbolicLink() && c.lastModifiedTime().toInstant().isBefore(cutoff)) {
              out.add(new StoreFile(name + "/" + child, c.isDirectory(), c.isDirectory() ? 0 : c.size(),
                  c.lastModifiedTime().toInstant()));
            }
          }
        }
      }
    }
    return out;
  }

  private int sweepLegacy(Dir root, String folder, Instant cutoff) throws IOException {
    int removed = 0;
    Dir d;
    try {
      d = root.openDir(folder);
    } catch (IOException goneOrSwapped) {
      return 0;
    }
    try {
      for (String name : d.names()) {
        if (!name.startsWith(TEMP_PREFIX)) {
          continue;
        }
        BasicFileAttributes a = d.stat(name);
        if (a != null && a.lastModifiedTime().toInstant().isBefore(cutoff)) {
          tree.remove(d, name);
          removed++;
        }
      }
    } finally {
      d.close();
    }
    return removed;
  }

  @Override
  public void close() {
    tree.close();
  }

  @Override
  public String toString() {
    return "LocalStore[" + root + "]";
  }

  /** The segments of a checked store path; none for the root. */
  private static String[] segments(String path) {
    StorePaths.check(path);
    return path.isEmpty() ? new String[0] : path.split("/");
  }

  private static void writeDurably(Dir dir, String name, EntryFile.Writer writer) throws IOException {
    try (FileChannel ch = dir.openFile(name, NEW_FILE)) {
      OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
      writer.writeTo(new NonClosing(out));
      out.flush();
      ch.force(true);
    }
  }

  /** Deletes a file, a link (itself) or a whole tree at {@code p} without following links; absent is fine. */
  static void deleteTree(Path p) throws IOException {
    Path absolute = p.toAbsolutePath();
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(absolute, BasicFileAttributes.class, Dir.NOFOLLOW);
    } catch (NoSuchFileException e) {
      return;
    }
    if (!a.isDirectory() || absolute.getParent() == null) {
      Files.deleteIfExists(absolute);
      return;
    }
    try (Dir parent = Dir.open(absolute.getParent())) {
      LocalTree.deleteTree(parent, absolute.getFileName().toString(), Interleaving.NONE);
    }
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
