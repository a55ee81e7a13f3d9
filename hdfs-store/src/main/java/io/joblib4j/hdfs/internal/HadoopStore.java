package io.joblib4j.hdfs.internal;

import io.joblib4j.CorruptFileException;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.CountingCrcOutputStream;
import io.joblib4j.spi.support.StorePaths;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * What the two publish protocols share: paths, reads, listings, local copies for memory-mapping,
 * and the outage breaker around every file system call. {@link RenameStore} and {@link
 * MarkerStore} add how entries become visible, are touched, deleted and swept.
 *
 * <p>Layout under the root: the caller's paths, plus {@code .jl4j-tmp/} (writers in progress: temporary
 * folders in rename mode, claim records in marker mode — one place, so that {@link #sweep} lists one
 * folder instead of walking the cache) and, inside each entry, {@code .jl4j-commit} (the manifest). Every
 * name starting with {@code .jl4j-} is the store's own and never listed.
 */
abstract class HadoopStore implements Store {
  /** Small writes (headers) are gathered; a 64 KiB slice of array data goes straight through, uncopied. */
  static final int WRITE_BUFFER = 1 << 16;
  private static final int SMALL_FILE = 1 << 20;
  private static final int READ_ATTEMPTS = 3;
  /** S3A reads an object by its ETag: one replaced between its HEAD and GET fails with 412, and is read again. */
  private static final int REPLACED_READ_ATTEMPTS = 10;
  private static final long TOUCH_GRANULARITY_MILLIS = 60_000;

  final URI location;
  final FileSystem fs;
  final Path root;
  final Path tempArea;
  final StoreOptions options;
  final Outage outage;
  final LocalCopies copies;
  private final AutoCloseable owner;
  /** Last access time recorded per entry by this JVM, so that hits do not write the file system each time. */
  private final Map<String, Long> touched = new ConcurrentHashMap<>();

  HadoopStore(URI location, FileSystem fs, AutoCloseable owner, StoreOptions options) throws IOException {
    this.location = location;
    this.fs = fs;
    this.owner = owner;
    this.options = options;
    this.root = fs.makeQualified(new Path(location));
    this.tempArea = new Path(root, Names.TEMP_PREFIX.substring(0, Names.TEMP_PREFIX.length() - 1));
    this.outage = Outage.of(location, options.outageBackoff());
    this.copies = new LocalCopies(options.localCacheDir(), options.localCacheBytes());
    outage.call(() -> fs.mkdirs(root));
  }

  // ---- what the protocols decide --------------------------------------------------------------

  /** Whether the files directly inside {@code dir} are visible, given its listing (null: look it up). */
  abstract boolean filesVisible(Path dir, FileStatus[] listing) throws IOException;

  /** The last-access time {@link #list} reports for a directory, given its listing. */
  abstract Instant directoryTime(FileStatus dir, FileStatus[] listing);

  abstract void deletePath(Path p) throws IOException;

  abstract void touchEntry(Path entry, Instant at) throws IOException;

  // ---- Store ----------------------------------------------------------------------------------

  @Override
  public URI location() {
    return location;
  }

  @Override
  public Optional<InputStream> open(String path) throws IOException {
    Path p = resolve(path);
    return outage.call(() -> {
      if (path.isEmpty() || !filesVisible(p.getParent(), null)) {
        return Optional.empty();
      }
      return openReading(p, location + "/" + path);
    });
  }

  /**
   * Opens a file and reads its first MiB at once: a small file (a hit on a small result, a
   * function.json) is then served from memory, and a reader that races a {@link #replace} of it —
   * HDFS fails such a read ("Blocklist has changed") rather than finishing the old content — opens
   * the new file and tries again. Larger files are entries, which never change, and stream on.
   */
  Optional<InputStream> openReading(Path p, String where) throws IOException {
    for (int attempt = 1; ; attempt++) {
      InputStream in;
      try {
        in = new ReadFailures(fs.open(p), fs, p, where);
      } catch (FileNotFoundException e) {
        return Optional.empty();
      }
      try {
        byte[] head = in.readNBytes(SMALL_FILE + 1);
        if (head.length <= SMALL_FILE) {
          in.close();
          return Optional.of(new ByteArrayInputStream(head));
        }
        return Optional.of(new SequenceInputStream(new ByteArrayInputStream(head), in));
      } catch (FileNotFoundException e) {
        in.close();
        return Optional.empty();
      } catch (IOException e) {
        in.close();
        if (attempt >= (replacedWhileRead(e) ? REPLACED_READ_ATTEMPTS : READ_ATTEMPTS) || Outage.unreachable(e)) {
          throw e;
        }
      } catch (RuntimeException e) {
        in.close();
        throw e;
      }
    }
  }

  /** Whether a read failed because the object was replaced under it (S3: 412 on the GET's If-Match). */
  static boolean replacedWhileRead(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (t.getClass().getSimpleName().equals("RemoteFileChangedException") || m.contains("Status Code: 412")
          || m.contains("PreconditionFailed")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Optional<java.nio.file.Path> localFile(String path) throws IOException {
    Path p = resolve(path);
    return outage.call(() -> {
      if (path.isEmpty() || !filesVisible(p.getParent(), null)) {
        return Optional.empty();
      }
      String where = location + "/" + path;
      FileStatus st = statusForCopy(p, where);
      if (st == null || !st.isFile()) {
        return Optional.empty();
      }
      Manifest m = manifestOrNull(p.getParent());
      Manifest.FileSum sum = m == null ? null : m.file(p.getName()).orElse(null);
      if (sum != null && sum.bytes() != st.getLen()) {
        throw new CorruptFileException(where, "the file has " + st.getLen() + " bytes, its entry's manifest says "
            + sum.bytes());
      }
      // The publication id makes a deleted-and-republished entry a new copy; the size and modification
      // time make a file changed behind the store's back (entries never change) a new copy too, which
      // is then downloaded and checked against the manifest instead of being served from the old copy.
      String identity = where + "|" + (m != null ? m.publication() : "loose") + "|" + st.getLen() + "|"
          + st.getModificationTime();
      return Optional.of(copies.get(identity, p.getName(), st.getLen(), sum == null ? null : sum.crc32c(), where,
          () -> new ReadFailures(fs.open(p), fs, p, where)));
    });
  }

  /**
   * The status of a file about to be served from this machine's copy, or null if it does not exist.
   * On HDFS it comes with the file's blocks, in the same single NameNode call: a block the NameNode
   * knows to be corrupt on every replica makes the file corrupt, even though this machine's copy —
   * checked against the writer's CRC32C when downloaded — is good, so that Memory deletes and
   * recomputes the entry instead of every machine without a copy failing on it.
   */
  private FileStatus statusForCopy(Path p, String where) throws IOException {
    if (!(fs instanceof DistributedFileSystem)) {
      return statusOrNull(p);
    }
    try {
      RemoteIterator<LocatedFileStatus> listing = fs.listLocatedStatus(p);
      if (!listing.hasNext()) {
        return null;
      }
      LocatedFileStatus st = listing.next();
      for (BlockLocation block : st.getBlockLocations()) {
        if (block.isCorrupt()) {
          throw new CorruptFileException(where, "the NameNode reports its block at offset " + block.getOffset()
              + " corrupt on every replica");
        }
      }
      return st;
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  @Override
  public boolean exists(String path) throws IOException {
    Path p = resolve(path);
    return outage.call(() -> {
      if (path.isEmpty()) {
        return true;
      }
      FileStatus st = statusOrNull(p);
      if (st == null) {
        return false;
      }
      return st.isFile() ? filesVisible(p.getParent(), null) : directoryVisible(p);
    });
  }

  /** Whether the directory {@code dir}, which exists, counts as existing for callers. */
  abstract boolean directoryVisible(Path dir) throws IOException;

  /** Whether a visible directory should be listed (object stores keep empty "directories" as markers). */
  boolean directoryHasContent(FileStatus[] listing) {
    return true;
  }

  @Override
  public List<StoreFile> list(String dir) throws IOException {
    return listing(dir, Integer.MAX_VALUE);
  }

  @Override
  public List<StoreFile> children(String dir) throws IOException {
    return listing(dir, 1);
  }

  private List<StoreFile> listing(String dir, int depth) throws IOException {
    Path start = resolve(dir);
    return outage.call(() -> {
      List<StoreFile> out = new ArrayList<>();
      FileStatus st = statusOrNull(start);
      if (st == null || !st.isDirectory()) {
        return out;
      }
      ParallelListings.Lister lister = depth == Integer.MAX_VALUE ? wholeTreeLister(start) : this::listDir;
      walk(st, lister.list(start), dir, out, true, depth, lister);
      return out;
    });
  }

  /**
   * How {@link #list} lists the folders of a whole tree under {@code start}: one call per folder
   * here; a store whose FileSystem lists a tree at once (S3A: one LIST request per 1,000 keys)
   * answers from that listing instead.
   */
  ParallelListings.Lister wholeTreeLister(Path start) throws IOException {
    return this::listDir;
  }

  /** Whether a directory's visibility depends on what it holds (marker mode's claims and commits). */
  boolean listingDecidesVisibility() {
    return false;
  }

  private void walk(FileStatus dirStatus, FileStatus[] listing, String rel, List<StoreFile> out, boolean start,
      int depth, ParallelListings.Lister lister) throws IOException {
    if (!filesVisible(dirStatus.getPath(), listing) || !start && !directoryHasContent(listing)) {
      return;
    }
    if (!start) {
      out.add(new StoreFile(rel, true, 0, directoryTime(dirStatus, listing)));
    }
    if (depth == 0) {
      return;
    }
    boolean needed = depth > 1 || listingDecidesVisibility();
    // folders listed only to tell whether they are visible: as much of their listing as that takes
    ParallelListings.Lister below = depth > 1 ? lister : this::visibilityListing;
    List<Path> folders = new ArrayList<>();
    for (FileStatus child : listing) {
      if (needed && child.isDirectory() && !child.isSymlink() && !Names.reserved(child.getPath().getName())) {
        folders.add(child.getPath());
      }
    }
    // many subfolders (a function's entries): their listings fetched by several threads at once
    Iterator<FileStatus[]> listed = folders.size() >= ParallelListings.PARALLEL_FROM
        ? ParallelListings.of(folders, below).iterator() : null;
    for (FileStatus child : listing) {
      String name = child.getPath().getName();
      if (Names.reserved(name) || child.isSymlink()) {
        continue; // a link is never counted or followed
      }
      String childRel = rel.isEmpty() ? name : rel + "/" + name;
      if (child.isDirectory()) {
        FileStatus[] childListing = !needed ? new FileStatus[0] : listed != null ? listed.next() : below.list(child.getPath());
        walk(child, childListing, childRel, out, false, depth - 1, lister);
      } else {
        out.add(new StoreFile(childRel, false, child.getLen(), Instant.ofEpochMilli(child.getModificationTime())));
      }
    }
  }

  /**
   * What writers left in the temporary area ({@code .jl4j-tmp/}) and last wrote before {@code age}
   * ago: one listing of that folder, and one of each temporary folder found old enough by its own time.
   */
  @Override
  public List<StoreFile> temporaries(java.time.Duration age) throws IOException {
    long cutoff = System.currentTimeMillis() - age.toMillis();
    return outage.call(() -> {
      List<StoreFile> out = new ArrayList<>();
      for (FileStatus temp : listOrEmpty(tempArea)) {
        long youngest = temp.getModificationTime();
        long size = temp.isDirectory() ? 0 : temp.getLen();
        if (youngest > cutoff) {
          continue;
        }
        if (temp.isDirectory()) {
          for (FileStatus f : listOrEmpty(temp.getPath())) {
            youngest = Math.max(youngest, f.getModificationTime());
            size += f.isDirectory() ? 0 : f.getLen();
          }
        }
        if (youngest <= cutoff) {
          out.add(new StoreFile(tempArea.getName() + "/" + temp.getPath().getName(), temp.isDirectory(), size,
              Instant.ofEpochMilli(youngest)));
        }
      }
      return out;
    });
  }

  @Override
  public void touch(String entry, Instant accessedAt) throws IOException {
    Path p = resolve(entry);
    long millis = accessedAt.toEpochMilli();
    Long last = touched.get(entry);
    if (last != null && Math.abs(last - millis) < TOUCH_GRANULARITY_MILLIS) {
      return; // coarse, as the Store SPI allows: a hit should not cost a NameNode write each time
    }
    outage.call(() -> {
      touchEntry(p, accessedAt);
      return null;
    });
    if (touched.size() > 100_000) {
      touched.clear();
    }
    touched.put(entry, millis);
  }

  @Override
  public void delete(String path) throws IOException {
    Path p = resolve(path);
    touched.keySet().removeIf(k -> path.isEmpty() || k.equals(path) || k.startsWith(path + "/"));
    outage.call(() -> {
      if (path.isEmpty()) {
        for (FileStatus child : listOrEmpty(root)) {
          if (!Names.reserved(child.getPath().getName())) {
            deletePath(child.getPath());
          }
        }
      } else {
        deletePath(p);
      }
      return null;
    });
  }

  /** {@code delete(path, false)}: the file system refuses it while anything is inside. */
  @Override
  public boolean deleteIfEmpty(String dir) throws IOException {
    if (dir.isEmpty()) {
      return false; // the cache's own root stays
    }
    Path p = resolve(dir);
    touched.keySet().removeIf(k -> k.equals(dir) || k.startsWith(dir + "/"));
    return outage.call(() -> {
      try {
        if (!fs.getFileStatus(p).isDirectory()) {
          return false;
        }
        return fs.delete(p, false) || !fs.exists(p);
      } catch (FileNotFoundException gone) {
        return true;
      } catch (PathIsNotEmptyDirectoryException notEmpty) {
        return false;
      }
    });
  }

  @Override
  public void close() {
    try {
      owner.close();
    } catch (Exception e) {
      // closing our own FileSystem instance; nothing the caller can do about a failure
    }
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + location + "]";
  }

  // ---- helpers for the protocols --------------------------------------------------------------

  /** The file system path of a checked caller path. */
  Path resolve(String path) {
    StorePaths.check(path);
    Names.checkNotReserved(path);
    return path.isEmpty() ? root : new Path(root, path);
  }

  /** The folder an entry is published to, after checking the entry and its file names. */
  Path resolveEntry(String entry, List<EntryFile> files) {
    Path target = resolve(entry);
    if (entry.isEmpty()) {
      throw new IllegalArgumentException("the store's root cannot be an entry");
    }
    for (EntryFile f : files) {
      Names.checkNotReserved(f.name());
    }
    return target;
  }

  FileStatus statusOrNull(Path p) throws IOException {
    try {
      return fs.getFileStatus(p);
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  /**
   * Enough of a folder's listing to decide whether it is visible ({@link #filesVisible}, {@link
   * #directoryHasContent}) and its time ({@link #directoryTime}): its whole listing here.
   */
  FileStatus[] visibilityListing(Path p) throws IOException {
    return listDir(p);
  }

  /** What {@link #list} sees in a folder: its listing, or for an entry, what its manifest names. */
  FileStatus[] listDir(Path p) throws IOException {
    return listOrEmpty(p);
  }

  FileStatus[] listOrEmpty(Path p) throws IOException {
    try {
      return fs.listStatus(p);
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    }
  }

  static boolean contains(FileStatus[] listing, String name) {
    for (FileStatus f : listing) {
      if (f.getPath().getName().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** The manifest of the entry folder {@code dir}, or null if it has none (or it does not parse). */
  Manifest manifestOrNull(Path dir) throws IOException {
    Path commit = new Path(dir, Names.COMMIT);
    try (InputStream in = fs.open(commit)) {
      return Manifest.parse(in, commit.toString());
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException e) {
      if (Outage.unreachable(e)) {
        throw e;
      }
      return null;
    }
  }

  /**
   * Writes one file, never over an existing one, and returns its size and CRC32C. With {@code sync},
   * the data is hsync'ed before close (HDFS does not sync on close unless the cluster sets
   * dfs.datanode.synconclose), where the stream can.
   */
  Manifest.FileSum writeFile(Path p, EntryFile.Writer writer, boolean sync, boolean exclusive) throws IOException {
    FSDataOutputStream out = create(p, exclusive);
    Manifest.FileSum sum;
    try {
      BufferedOutputStream buffered = new BufferedOutputStream(out, WRITE_BUFFER);
      CountingCrcOutputStream counted = new CountingCrcOutputStream(buffered);
      writer.writeTo(counted);
      counted.flush();
      buffered.flush();
      if (sync && out.hasCapability(StreamCapabilities.HSYNC)) {
        out.hsync();
      }
      sum = new Manifest.FileSum(counted.bytes(), counted.crcHex());
    } catch (IOException | RuntimeException e) {
      closeAfter(out, e);
      throw e;
    }
    out.close();
    return sum;
  }

  /**
   * Closes a stream whose write failed. Not try-with-resources: an HDFS stream that failed rethrows
   * the very same exception from close(), which try-with-resources would add to itself — an
   * IllegalArgumentException ("Self-suppression not permitted") in place of the cause.
   */
  static void closeAfter(java.io.Closeable stream, Throwable failure) {
    try {
      stream.close();
    } catch (IOException | RuntimeException e) {
      if (e != failure) {
        failure.addSuppressed(e);
      }
    }
  }

  /** Creates a file; {@code exclusive}: fails with FileAlreadyExistsException if it exists. */
  FSDataOutputStream create(Path p, boolean exclusive) throws IOException {
    return fs.create(p, !exclusive);
  }

  static Manifest newManifest(String publication, List<Map.Entry<String, Manifest.FileSum>> sums) {
    return Manifest.of(publication, Instant.now(), sums);
  }

  static void quietly(IoAction action) {
    try {
      action.run();
    } catch (IOException | RuntimeException e) {
      // best-effort cleanup: sweep removes whatever is left
    }
  }

  @FunctionalInterface
  interface IoAction {
    void run() throws IOException;
  }
}
