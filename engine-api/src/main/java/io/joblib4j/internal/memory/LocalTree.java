package io.joblib4j.internal.memory;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The folder tree under a local store's root, reached only through open folder handles ({@link
 * Dir}), one name at a time: no operation resolves a path through the tree, so no symbolic link
 * under the root — planted before, or swapped in while the store works — is ever followed. The
 * root folder itself (and its ancestors) is trusted and held open; a root that was deleted and
 * recreated meanwhile is reopened.
 *
 * <p>Folders are created the only ways that do not follow links: a child of the root by its
 * absolute path ({@code mkdir} creates the last name and never follows a link there), a deeper one
 * as a temporary child of the root renamed into its parent's handle. Temporaries ({@code .tmp-...})
 * all live at the root, so a publish renames from the root into the entry's folder handle, and
 * {@link LocalStore#sweep} finds dead writers' leftovers by listing one folder.
 */
final class LocalTree {
  static final String TEMP_PREFIX = ".tmp-";
  /** The file a folder made below the root arrives with (a temporary's name: never listed, swept later). */
  static final String KEEP = TEMP_PREFIX + "keep";

  /** Where a store's operations pass, so that tests can swap links in at each step. */
  enum Step {
    /** A publish opened the entry's parent folder and is about to create its temporary. */
    FOLDER_OPENED,
    /** A publish created its temporary folder at the root and is about to open it. */
    TEMP_CREATED,
    /** A publish wrote one file of the entry into its temporary folder. */
    FILE_WRITTEN,
    /** A publish is about to rename its temporary onto the entry. */
    BEFORE_RENAME,
    /** A read opened one folder on the way to a file and is about to open the next name. */
    READ_OPENED,
    /** A delete opened one folder of the tree it removes and is about to remove its children. */
    DELETE_OPENED,
    /** A listing is about to open a folder it found. */
    LIST_OPENING
  }

  /** Called at each {@link Step} with the store path concerned (tests only; production has none). */
  @FunctionalInterface
  interface Interleaving {
    Interleaving NONE = (step, path) -> {};

    void at(Step step, String path) throws IOException;
  }

  private final Path rootPath;
  private final boolean byPath;
  final Interleaving hook;
  private volatile Dir root;
  private volatile Object rootKey;
  /** Root handles replaced while other threads may still use them: closed with the store. */
  private final List<Dir> retired = new ArrayList<>();

  LocalTree(Path rootPath, boolean byPath, Interleaving hook) throws IOException {
    this.rootPath = rootPath;
    this.byPath = byPath;
    this.hook = hook;
    root();
  }

  Path rootPath() {
    return rootPath;
  }

  /** The held root folder, reopened if the store was closed. */
  Dir root() throws IOException {
    Dir r = root;
    if (r != null) {
      return r;
    }
    synchronized (this) {
      if (root == null) {
        Dir opened = openRoot();
        rootKey = opened.fileKey();
        root = opened;
      }
      return root;
    }
  }

  private Dir openRoot() throws IOException {
    return byPath ? Dir.openByPath(rootPath) : Dir.open(rootPath);
  }

  /**
   * Makes sure the held root is the folder at the root's path: a cache folder deleted (and perhaps
   * recreated) by someone else while this JVM works is reopened, recreated if missing. A root
   * replaced by a link is refused. Returns whether the root was reopened.
   */
  boolean checkRoot() throws IOException {
    BasicFileAttributes now;
    try {
      now = Files.readAttributes(rootPath, BasicFileAttributes.class, Dir.NOFOLLOW);
    } catch (NoSuchFileException e) {
      Files.createDirectories(rootPath);
      now = Files.readAttributes(rootPath, BasicFileAttributes.class, Dir.NOFOLLOW);
    }
    if (now.isSymbolicLink()) {
      throw new IOException("the cache folder " + rootPath + " was replaced by a symbolic link; refusing to follow it");
    }
    root();
    if (now.fileKey() == null || now.fileKey().equals(rootKey)) {
      return false;
    }
    synchronized (this) {
      if (!now.fileKey().equals(rootKey)) {
        if (root != null) {
          retired.add(root);
        }
        Dir opened = openRoot();
        rootKey = opened.fileKey();
        root = opened;
      }
    }
    return true;
  }

  /** An open folder; closing it releases it unless it is the held root. */
  static final class Opened implements AutoCloseable {
    final Dir dir;
    private final boolean owned;

    Opened(Dir dir, boolean owned) {
      this.dir = dir;
      this.owned = owned;
    }

    @Override
    public void close() throws IOException {
      if (owned) {
        dir.close();
      }
    }
  }

  /**
   * Opens the folder made of the first {@code count} of {@code segments} (0: the root), one name at
   * a time, creating missing folders if {@code create}.
   *
   * @throws NoSuchFileException if a folder is missing and {@code create} is false
   */
  Opened open(String[] segments, int count, boolean create, String path) throws IOException {
    Dir root = root();
    Dir current = root;
    try {
      for (int i = 0; i < count; i++) {
        Dir next;
        try {
          next = current.openDir(segments[i]);
        } catch (NoSuchFileException e) {
          if (!create) {
            throw e;
          }
          mkdir(current, segments[i]);
          next = current.openDir(segments[i]);
        }
        if (current != root) {
          current.close();
        }
        current = next;
        if (i < count - 1) {
          hook.at(Step.READ_OPENED, path);
        }
      }
      return new Opened(current, current != root);
    } catch (IOException | RuntimeException e) {
      if (current != root) {
        current.close();
      }
      throw e;
    }
  }

  /** Creates the folder {@code name} in {@code parent}, unless another writer just did. */
  private void mkdir(Dir parent, String name) throws IOException {
    Dir root = root();
    if (parent == root) {
      try {
        Files.createDirectory(rootPath.resolve(name)); // creates the last name only; never follows a link there
      } catch (FileAlreadyExistsException raced) {
        // another writer made it (or planted something there: openDir refuses it)
      }
      return;
    }
    // A rename replaces an empty folder: the new folder holds a (hidden) file as it arrives, so
    // that a writer racing to create the same folder fails its rename instead of replacing this one.
    String temp = newTemp("dir");
    try {
      try (Dir t = root.openDir(temp);
          java.nio.channels.FileChannel keep = t.openFile(KEEP, java.util.Set.of(
              java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE))) {
        // empty
      }
      if (parent.stat(name) == null) {
        root.move(temp, parent, name);
      }
    } catch (FileAlreadyExistsException | DirectoryNotEmptyException raced) {
      // another writer made it first
    } finally {
      if (root.stat(temp) != null) {
        deleteTree(root, temp);
      }
    }
  }

  /** Creates a new, empty temporary folder at the root and returns its name. */
  String newTemp(String hint) throws IOException {
    String name = TEMP_PREFIX + hint + "-" + UUID.randomUUID();
    Files.createDirectory(rootPath.resolve(name));
    return name;
  }

  /** The name of a new temporary file at the root (not created). */
  static String tempFileName(String hint) {
    return TEMP_PREFIX + hint + "-" + UUID.randomUUID();
  }

  /**
   * Removes the child {@code name} of {@code parent} and all it holds: a folder first leaves its
   * place in one rename (to a temporary at the root), so readers see it whole or not at all, then
   * is deleted there. Links are removed, never followed. What is already gone is fine.
   */
  void remove(Dir parent, String name) throws IOException {
    Dir root = root();
    BasicFileAttributes a = parent.stat(name);
    if (a == null) {
      return;
    }
    if (!a.isDirectory()) {
      deleteQuietlyIfGone(parent, name, false);
      return;
    }
    String tomb = TEMP_PREFIX + "del-" + UUID.randomUUID();
    try {
      parent.move(name, root, tomb);
    } catch (NoSuchFileException gone) {
      return;
    } catch (IOException crossDevice) {
      deleteTree(parent, name); // a mount point, say: deleted in place
      return;
    }
    deleteTree(root, tomb);
  }

  /** Deletes the folder {@code name} in {@code parent} with everything under it, never following a link. */
  void deleteTree(Dir parent, String name) throws IOException {
    deleteTree(parent, name, hook);
  }

  static void deleteTree(Dir parent, String name, Interleaving hook) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Dir d;
      try {
        d = parent.openDir(name);
      } catch (NoSuchFileException gone) {
        return;
      }
      try {
        hook.at(Step.DELETE_OPENED, d.path().toString());
        for (String child : d.names()) {
          BasicFileAttributes a = d.stat(child);
          if (a == null) {
            continue;
          }
          if (a.isDirectory()) {
            deleteTree(d, child, hook);
          } else {
            deleteQuietlyIfGone(d, child, false);
          }
        }
      } finally {
        d.close();
      }
      try {
        parent.deleteDir(name);
        return;
      } catch (NoSuchFileException gone) {
        return;
      } catch (DirectoryNotEmptyException raced) {
        if (attempt >= 100) {
          throw raced; // a writer keeps adding files
        }
        // a writer added a file meanwhile: once more
      }
    }
  }

  private static void deleteQuietlyIfGone(Dir parent, String name, boolean dir) throws IOException {
    try {
      if (dir) {
        parent.deleteDir(name);
      } else {
        parent.deleteFile(name);
      }
    } catch (NoSuchFileException gone) {
      // deleted concurrently
    }
  }

  /** Closes the held root (and any retired one). */
  synchronized void close() {
    for (Dir d : retired) {
      closeQuietly(d);
    }
    retired.clear();
    if (root != null) {
      closeQuietly(root);
      root = null;
    }
  }

  private static void closeQuietly(Dir d) {
    try {
      d.close();
    } catch (IOException e) {
      // nothing to do
    }
  }
}
