package io.joblib4j.hdfs.internal;

import io.joblib4j.CorruptFileException;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.CountingCrcOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.util.functional.FutureIO;

/**
 * Marker mode, for object stores (S3A, GCS, ABFS, ...), whose rename is a copy and a delete that
 * others can watch half done, but where an object appears whole when its writer closes it.
 *
 * <p><b>Publish</b> renames nothing and takes no claim (S3 has no lease: a claim a killed writer
 * left would block its entry). Each publication is an <i>attempt</i> with a random id:
 * <ol>
 *   <li>a file of up to {@link #INLINE_MAX} bytes goes into the manifest itself; a larger one into an
 *       object {@code .jl4j-a.<attempt>.<name>} in the entry's folder, a name no other writer uses, so
 *       writers never overwrite each other's bytes. Before its first such object the attempt writes a
 *       record {@code .jl4j-tmp/.jl4j-<attempt>.<epoch millis>.claim} naming the entry, for {@link
 *       #sweep} (the time in its name is when the attempt started);
 *   <li>last, {@code .jl4j-commit}: the manifest naming each file's size, CRC32C and place. It is the
 *       commit point. Where the store offers a conditional create ({@code If-None-Match: *} on S3A
 *       3.4.2+, asked with {@code hasPathCapability}) the manifest is created with it and, of racing
 *       writers, exactly one publishes; the others see the 412 when the stream closes, delete their
 *       objects and use the winner's entry. Without it ({@code fs.s3a.create.conditional.enabled=false},
 *       hadoop-aws before 3.4.2) S3 has no exclusive create: S3A's {@code create(overwrite=false)} is
 *       two HEADs and a LIST, then a PUT. The store makes that check itself, and cheaper: one HEAD of
 *       the manifest, skipped when this store saw the entry absent less than {@link #FRESH_ABSENCE}
 *       ago (the lookup of the miss that is being stored), then a plain PUT. Two writers can both pass
 *       the check, both PUT, and the manifest written last wins: both compute, both report {@code
 *       PUBLISHED}, and every reader reads one whole manifest and what it names. A writer whose files
 *       went into objects then reads the manifest back, and if it names another attempt, deletes its
 *       own objects; a small entry, all in its manifest, leaves nothing to delete.
 * </ol>
 * A reader reads the manifest first and then only what it names: never a partial, mixed or
 * overwritten value, whatever writers race or die. A writer killed at any step leaves no manifest,
 * so nothing a reader takes for an entry, and nothing the next writer waits for; its objects are
 * hidden and removed by {@link #sweep}. A small hit is one GET (the manifest holds the bytes).
 *
 * <p><b>Delete</b> removes the manifest first (the entry vanishes at once), then the objects it
 * listed. <b>Touch</b> writes nothing (a reader with read-only credentials gets its hits, and a hit
 * costs no PUT): {@link #list} reports an entry's commit time, or the last access this store saw.
 * <b>Replace</b> is one whole-object write.
 */
final class MarkerStore extends HadoopStore {
  /** Files up to this size are kept in the manifest: a small hit reads one object. */
  static final int INLINE_MAX = 64 << 10;
  private static final String RECORD_SUFFIX = ".claim";
  private static final String ATTEMPT_PREFIX = Names.RESERVED_PREFIX + "a.";
  private static final SecureRandom RANDOM = new SecureRandom();
  /**
   * Options.CreateFileOptionKeys.FS_OPTION_CREATE_CONDITIONAL_OVERWRITE of Hadoop 3.4.2 and later, by
   * value: the Hadoop 3.3 client Spark 3.5 ships has no such class, and no such capability (asked for
   * through {@code hasPathCapability} first, so never demanded there).
   */
  private static final String CONDITIONAL_OVERWRITE = "fs.option.create.conditional.overwrite";

  private static final String CREATE_PERFORMANCE = "fs.s3a.create.performance";

  /** Whether the store creates exclusively by itself (S3A's conditional create). */
  private final boolean conditionalCreate;
  /**
   * Whether {@code create(overwrite=false)} is only a check and then a PUT (S3A without conditional
   * create): there the store checks for a manifest itself ({@link #commit}). Elsewhere (ABFS, GCS)
   * the create itself is exclusive.
   */
  private final boolean checkThenPut;
  /**
   * How recently this store must have seen an entry's manifest absent for a publish to skip its own
   * look (one HEAD) on a {@link #checkThenPut} store: Memory looks just before it computes, so a
   * miss stored within this time costs no request more. A writer that started later than another's
   * publish within that time races it, as writers passing the check together do.
   */
  static final Duration FRESH_ABSENCE = Duration.ofSeconds(10);
  /** Entry folders whose manifest this store found absent, with when (System.nanoTime). */
  private final Map<String, Long> seenAbsent = new ConcurrentHashMap<>();
  /** Whether {@link #list} lists a tree at once ({@link #wholeTreeLister}). */
  private final boolean flatListing;
  /** Whether a folder's listing comes in name order, page by page (S3): {@link #visibilityListing}. */
  private final boolean nameOrderListings;
  /** Whether a publication writes an {@link EntrySummary} after its manifest (S3, where the ETag is an MD5). */
  private final boolean summaries;
  /** The last access this store recorded per entry folder: what {@link #list} reports (touch writes nothing). */
  private final Map<String, Long> accessed = new ConcurrentHashMap<>();
  /** The manifests listings read, by path, with the version read ({@link #listedManifest}). */
  private final Map<String, ListedManifest> listedManifests = new ConcurrentHashMap<>();

  MarkerStore(URI location, FileSystem fs, AutoCloseable owner, StoreOptions options) throws IOException {
    super(location, fs, owner, options);
    this.conditionalCreate = capability(fs, root, CONDITIONAL_OVERWRITE);
    this.flatListing = listsTreesItself(fs);
    this.nameOrderListings = "s3a".equals(scheme(fs));
    this.checkThenPut = nameOrderListings && !conditionalCreate;
    this.summaries = nameOrderListings && etagIsMd5(fs);
  }

  /**
   * Whether S3 gives a single PUT's MD5 as its ETag, which {@link EntrySummary} relies on: not with
   * SSE-KMS, DSSE-KMS or SSE-C encryption (there a summary would never match: a wasted PUT per store).
   */
  private static boolean etagIsMd5(FileSystem fs) {
    String algorithm = fs.getConf().getTrimmed("fs.s3a.encryption.algorithm",
        fs.getConf().getTrimmed("fs.s3a.server-side-encryption-algorithm", ""));
    return !algorithm.toUpperCase(java.util.Locale.ROOT).contains("KMS") && !algorithm.equalsIgnoreCase("SSE-C");
  }

  /** Whether the FileSystem lists a tree by itself (S3A: a flat LIST), not with FileSystem's walk. */
  private static boolean listsTreesItself(FileSystem fs) {
    try {
      return fs.getClass().getMethod("listFiles", Path.class, boolean.class).getDeclaringClass() != FileSystem.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static String scheme(FileSystem fs) {
    try {
      return fs.getScheme();
    } catch (UnsupportedOperationException e) {
      return fs.getUri().getScheme();
    }
  }

  private static boolean capability(FileSystem fs, Path p, String name) {
    try {
      return fs.hasPathCapability(p, name);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  // ---- publish --------------------------------------------------------------------------------

  @Override
  public Publication publish(String entry, List<EntryFile> files) throws IOException {
    Path target = resolveEntry(entry, files);
    return outage.call(() -> {
      // no look for an existing entry first: the manifest's exclusive create is that check, and
      // Memory looked just before it computed (an extra HEAD per store, for a rare duplicate)
      Attempt a = new Attempt(entry, target);
      try {
        List<Map.Entry<String, Manifest.FileSum>> sums = new ArrayList<>();
        for (EntryFile f : files) {
          sums.add(new SimpleEntry<>(f.name(), a.write(f)));
        }
        Manifest written = newManifest(a.id, sums);
        byte[] manifest = written.toJson();
        if (!commit(target, a.id, manifest, !a.objects.isEmpty())) {
          a.discard();
          return Publication.ALREADY_PRESENT;
        }
        if (summaries) {
          writeSummary(target, manifest, written);
        }
        return Publication.PUBLISHED;
      } catch (IOException | RuntimeException e) {
        a.discard();
        throw e;
      } finally {
        a.close();
      }
    });
  }

  /**
   * After the commit, the entry's {@link EntrySummary}: one more PUT, so that listings need not GET
   * the manifest. Not part of the commit: if it fails, or this writer dies first, listings read the
   * manifest instead.
   */
  private void writeSummary(Path entry, byte[] manifest, Manifest written) {
    Map<String, Long> sizes = new LinkedHashMap<>();
    written.files().forEach((name, sum) -> sizes.put(name, sum.bytes()));
    String name = EntrySummary.name(manifest, sizes);
    if (name != null) {
      quietly(() -> writeFile(new Path(entry, name), out -> { }, false, false));
    }
  }

  /**
   * Writes the manifest; false if another writer's manifest is there (or won the race). {@code
   * objects}: whether the attempt wrote objects, which a losing attempt must delete.
   */
  private boolean commit(Path entry, String attempt, byte[] manifest, boolean objects) throws IOException {
    Path commit = new Path(entry, Names.COMMIT);
    if (checkThenPut) {
      return commitCheckThenPut(entry, commit, attempt, manifest, objects);
    }
    for (int tries = 0; ; tries++) {
      try {
        writeFile(commit, out -> out.write(manifest), false, true);
        break;
      } catch (IOException e) {
        if (!taken(e)) {
          throw e;
        }
        if (tries > 0 || !removedAbandonedManifest(commit)) {
          return false;
        }
      }
    }
    if (conditionalCreate) {
      return true; // the store refused every other writer's create
    }
    // check-then-PUT: another writer may have passed the check too
    return lastWrittenIsOurs(entry, attempt);
  }

  /**
   * {@link #commit} where no create is exclusive: one look for a manifest unless this store saw it
   * absent just now, a plain PUT (no S3A probes), and a read back only when a loss would leave this
   * attempt's objects behind.
   */
  private boolean commitCheckThenPut(Path entry, Path commit, String attempt, byte[] manifest, boolean objects)
      throws IOException {
    if (!seenAbsentRecently(entry)) {
      FileStatus st = statusOrNull(commit);
      if (st != null && st.getLen() > 0) {
        return false;
      }
    }
    writeFile(commit, out -> out.write(manifest), false, false);
    seenAbsent.remove(key(entry));
    if (!objects) {
      return true; // whichever manifest was written last is whole, and names no object of this attempt
    }
    return lastWrittenIsOurs(entry, attempt);
  }

  /** Where two writers may both pass the check, the manifest written last wins: is it this attempt's? */
  private boolean lastWrittenIsOurs(Path entry, String attempt) throws IOException {
    Manifest now = manifestOrNull(entry);
    return now == null || now.publication().equals(attempt);
  }

  private boolean seenAbsentRecently(Path entry) {
    Long at = seenAbsent.get(key(entry));
    return at != null && System.nanoTime() - at < FRESH_ABSENCE.toNanos();
  }

  private static String key(Path entry) {
    return entry.toUri().getPath();
  }

  /** Also notes, on a {@link #checkThenPut} store, when an entry's manifest was found absent. */
  @Override
  Manifest manifestOrNull(Path dir) throws IOException {
    Manifest m = super.manifestOrNull(dir);
    if (checkThenPut) {
      if (m != null) {
        seenAbsent.remove(key(dir));
      } else {
        if (seenAbsent.size() > 10_000) {
          seenAbsent.clear();
        }
        seenAbsent.put(key(dir), System.nanoTime());
      }
    }
    return m;
  }

  /**
   * A manifest is never empty, but on ABFS the name is taken, empty, from its create until its
   * writer's close: a writer killed in between leaves it so, and every later create of the name is
   * refused. Writing a manifest takes milliseconds, so one still empty after {@link
   * #ABANDONED_AFTER} is a dead writer's: it is removed, and the caller creates again. (Two writers
   * that both remove it race on the create as usual; one that removed another's fresh manifest only
   * costs a reader a recomputation, never a wrong value.)
   */
  private boolean removedAbandonedManifest(Path commit) throws IOException {
    FileStatus st = statusOrNull(commit);
    if (st == null || st.getLen() > 0
        || System.currentTimeMillis() - st.getModificationTime() < ABANDONED_AFTER.toMillis()) {
      return false;
    }
    return fs.delete(commit, false);
  }

  /** How long an empty manifest may be another writer's, still writing it. */
  static final java.time.Duration ABANDONED_AFTER = java.time.Duration.ofSeconds(10);

  /** Whether a listing holds a manifest: a non-empty {@code .jl4j-commit} (an empty one is a writer's, unfinished). */
  private static boolean committed(FileStatus[] listing) {
    return manifestIn(listing) != null;
  }

  /** The listing's manifest, or null if it has none or only an empty one. */
  private static FileStatus manifestIn(FileStatus[] listing) {
    FileStatus commit = find(listing, Names.COMMIT);
    return commit != null && commit.getLen() > 0 ? commit : null;
  }

  /**
   * Whether a create failed because the name is taken: Hadoop's FileAlreadyExistsException, or
   * S3A's RemoteFileChangedException with status 412 when a conditional PUT is refused at close().
   */
  static boolean taken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof FileAlreadyExistsException) {
        return true;
      }
      String m = String.valueOf(t.getMessage());
      if (t.getClass().getSimpleName().equals("RemoteFileChangedException")
          && (m.contains("412") || m.contains("PreconditionFailed"))) {
        return true;
      }
    }
    return false;
  }

  /** One writer's publication: its id, the objects it wrote, its sweep record. */
  private final class Attempt {
    final String id = HexFormat.of().formatHex(random());
    final String entry;
    final Path target;
    final List<Path> objects = new ArrayList<>();
    Path record;

    Attempt(String entry, Path target) {
      this.entry = entry;
      this.target = target;
    }

    private byte[] random() {
      byte[] b = new byte[12];
      RANDOM.nextBytes(b);
      return b;
    }

    /** Keeps a small file in memory (for the manifest), writes a larger one to an object of this attempt. */
    Manifest.FileSum write(EntryFile f) throws IOException {
      Spill spill = new Spill(f.name());
      CountingCrcOutputStream counted = new CountingCrcOutputStream(spill);
      try {
        f.writer().writeTo(counted);
        counted.flush();
        spill.finish();
      } catch (IOException | RuntimeException e) {
        spill.abandon(e);
        throw e;
      }
      Manifest.FileSum sum = new Manifest.FileSum(counted.bytes(), counted.crcHex());
      return spill.object == null ? sum.holding(spill.small.toByteArray()) : sum.at(spill.object.getName());
    }

    void discard() {
      for (Path p : objects) {
        quietly(() -> fs.delete(p, false));
      }
      objects.clear();
    }

    void close() {
      if (record != null) {
        quietly(() -> fs.delete(record, false));
      }
    }

    /** The stream a file is written to: memory up to INLINE_MAX bytes, then this attempt's object. */
    private final class Spill extends OutputStream {
      final String name;
      final ByteArrayOutputStream small = new ByteArrayOutputStream();
      FSDataOutputStream out;
      Path object;

      Spill(String name) {
        this.name = name;
      }

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        if (out == null && small.size() + len <= INLINE_MAX) {
          small.write(b, off, len);
          return;
        }
        if (out == null) {
          spill();
        }
        out.write(b, off, len);
      }

      private void spill() throws IOException {
        if (record == null) {
          Path r = new Path(tempArea, Names.RESERVED_PREFIX + id + "." + System.currentTimeMillis() + RECORD_SUFFIX);
          byte[] name = entry.getBytes(StandardCharsets.UTF_8);
          writeFile(r, o -> o.write(name), false, false);
          record = r;
        }
        object = new Path(target, ATTEMPT_PREFIX + id + "." + name);
        out = create(object, false);
        objects.add(object);
        small.writeTo(out);
        small.reset();
      }

      void finish() throws IOException {
        if (out != null) {
          out.close(); // the object appears whole, now
        }
      }

      void abandon(Throwable failure) {
        if (out != null) {
          closeAfter(out, failure);
        }
      }
    }
  }

  /** Exclusive creates (the manifest) ask for the store's conditional create where it has one. */
  @Override
  FSDataOutputStream create(Path p, boolean exclusive) throws IOException {
    if (!exclusive) {
      // names no other writer uses, or whole-object replaces: S3A need not probe for a folder or an
      // object there first (a HEAD and a LIST per PUT); stores without the option ignore it
      var builder = fs.createFile(p).overwrite(true).recursive();
      builder.opt(CREATE_PERFORMANCE, true);
      return (FSDataOutputStream) builder.build();
    }
    if (!conditionalCreate) {
      return fs.create(p, false);
    }
    var builder = fs.createFile(p).overwrite(false).recursive();
    builder.must(CONDITIONAL_OVERWRITE, true);
    return (FSDataOutputStream) builder.build();
  }

  @Override
  public void replace(String path, byte[] content) throws IOException {
    Path target = resolve(path);
    outage.call(() -> writeFile(target, out -> out.write(content), false, false));
  }

  // ---- read -----------------------------------------------------------------------------------

  @Override
  public Optional<InputStream> open(String path) throws IOException {
    if (path.isEmpty()) {
      return Optional.empty();
    }
    Path p = resolve(path);
    String where = location + "/" + path;
    return outage.call(() -> {
      Manifest m = manifestOrNull(p.getParent());
      if (m == null) {
        return openReading(p, where); // a plain file (function.json, ...), never part of an entry
      }
      Manifest.FileSum sum = m.file(p.getName()).orElse(null);
      if (sum == null) {
        return Optional.empty();
      }
      if (sum.inline() != null) {
        return Optional.of(new ByteArrayInputStream(checked(sum, where)));
      }
      return openReading(new Path(p.getParent(), sum.objectOf(p.getName())), where);
    });
  }

  /** The inline bytes of a file, checked against the manifest's size and CRC32C. */
  private static byte[] checked(Manifest.FileSum sum, String where) {
    byte[] b = sum.inline();
    CRC32C crc = new CRC32C();
    crc.update(b);
    if (b.length != sum.bytes() || !String.format("%08x", crc.getValue()).equals(sum.crc32c())) {
      throw new CorruptFileException(where, "the bytes in its entry's manifest do not match the size and CRC32C"
          + " recorded beside them");
    }
    return b;
  }

  @Override
  public boolean exists(String path) throws IOException {
    if (path.isEmpty()) {
      return true;
    }
    Path p = resolve(path);
    return outage.call(() -> {
      Manifest m = manifestOrNull(p.getParent());
      if (m != null) {
        return m.file(p.getName()).isPresent(); // an entry holds files only
      }
      FileStatus st = statusOrNull(p);
      return st != null && (st.isFile() || directoryVisible(p));
    });
  }

  @Override
  public Optional<java.nio.file.Path> localFile(String path) throws IOException {
    if (path.isEmpty()) {
      return Optional.empty();
    }
    Path p = resolve(path);
    String where = location + "/" + path;
    return outage.call(() -> {
      Manifest m = manifestOrNull(p.getParent());
      if (m == null) {
        FileStatus st = statusOrNull(p);
        if (st == null || !st.isFile()) {
          return Optional.empty();
        }
        String identity = where + "|loose|" + st.getLen() + "|" + st.getModificationTime();
        return Optional.of(copies.get(identity, p.getName(), st.getLen(), null, where,
            () -> new ReadFailures(fs.open(p), fs, p, where)));
      }
      Manifest.FileSum sum = m.file(p.getName()).orElse(null);
      if (sum == null) {
        return Optional.empty();
      }
      // the publication id makes a deleted-and-republished entry a new copy
      String identity = where + "|" + m.publication() + "|" + sum.bytes();
      if (sum.inline() != null) {
        byte[] bytes = checked(sum, where);
        return Optional.of(copies.get(identity, p.getName(), sum.bytes(), sum.crc32c(), where,
            () -> new ByteArrayInputStream(bytes)));
      }
      Path object = new Path(p.getParent(), sum.objectOf(p.getName()));
      return Optional.of(copies.get(identity, p.getName(), sum.bytes(), sum.crc32c(), where,
          () -> new ReadFailures(fs.open(object), fs, object, where)));
    });
  }

  // ---- listing --------------------------------------------------------------------------------

  /** An entry's folder is what its manifest names (sizes from it, time of the commit); other folders as listed. */
  @Override
  FileStatus[] listDir(Path dir) throws IOException {
    return entryView(dir, listOrEmpty(dir));
  }

  /**
   * A folder's listing up to its first name that sorts after every reserved one: S3 lists in name
   * order and its reserved objects ({@code .jl4j-commit}, {@code .jl4j-claim}) come first, so the
   * first page of a function's folder (1,000 entries) tells whether it is visible, not all its pages.
   * An entry's folder gives its manifest's time without its manifest being read.
   */
  @Override
  FileStatus[] visibilityListing(Path dir) throws IOException {
    if (!nameOrderListings) {
      return super.visibilityListing(dir);
    }
    List<FileStatus> seen = new ArrayList<>();
    try {
      RemoteIterator<FileStatus> it = fs.listStatusIterator(dir);
      while (it.hasNext()) {
        FileStatus f = it.next();
        seen.add(f);
        String name = f.getPath().getName();
        if (!Names.reserved(name) && name.compareTo(PAST_RESERVED) >= 0) {
          break;
        }
      }
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    }
    return seen.toArray(new FileStatus[0]);
  }

  /** The first name after every reserved one in S3's order ({@code .jl4j-} then anything sorts before it). */
  private static final String PAST_RESERVED = ".jl4k";

  /** What {@link #list} shows of the folder {@code dir} whose objects are {@code raw}. */
  private FileStatus[] entryView(Path dir, FileStatus[] raw) throws IOException {
    FileStatus commit = manifestIn(raw);
    if (commit == null) {
      return raw;
    }
    Map<String, Long> sizes = summarized(commit, raw);
    if (sizes == null) {
      Manifest m = listedManifest(commit);
      if (m == null) {
        return new FileStatus[] {commit};
      }
      sizes = new LinkedHashMap<>();
      for (Map.Entry<String, Manifest.FileSum> f : m.files().entrySet()) {
        sizes.put(f.getKey(), f.getValue().bytes());
      }
    }
    List<FileStatus> out = new ArrayList<>();
    out.add(commit);
    sizes.forEach((name, bytes) -> out.add(new FileStatus(bytes, false, 1, 0, commit.getModificationTime(),
        new Path(dir, name))));
    return out.toArray(new FileStatus[0]);
  }

  /** The names and sizes the listing's {@link EntrySummary} of this very manifest gives, or null if it has none. */
  private static Map<String, Long> summarized(FileStatus commit, FileStatus[] raw) {
    String etag = commit instanceof EtagSource e ? e.getEtag() : null;
    if (etag == null) {
      return null;
    }
    for (FileStatus f : raw) {
      Map<String, Long> sizes = EntrySummary.sizesFor(f.getPath().getName(), etag);
      if (sizes != null) {
        return sizes;
      }
    }
    return null;
  }

  /**
   * The manifest a listing found: read once per version of it (a manifest is never rewritten in
   * place; a republished entry's has another ETag, or another size or time where the store gives no
   * ETag), so a store that lists its cache again (limits, {@code entries()}) reads only new manifests.
   * Opened with the listing's status: no HEAD before the GET.
   */
  private Manifest listedManifest(FileStatus commit) throws IOException {
    String path = commit.getPath().toUri().getPath();
    String version = (commit instanceof EtagSource e && e.getEtag() != null ? e.getEtag() : "")
        + "|" + commit.getLen() + "|" + commit.getModificationTime();
    ListedManifest known = listedManifests.get(path);
    if (known != null && known.version.equals(version)) {
      return known.manifest;
    }
    Manifest m;
    try (InputStream in = FutureIO.awaitFuture(fs.openFile(commit.getPath()).withFileStatus(commit).build())) {
      m = Manifest.parse(in, commit.getPath().toString());
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException e) {
      if (Outage.unreachable(e)) {
        throw e;
      }
      return null;
    }
    if (listedManifests.size() > 100_000) {
      listedManifests.clear();
    }
    listedManifests.put(path, new ListedManifest(version, m));
    return m;
  }

  private record ListedManifest(String version, Manifest manifest) {}

  /**
   * A whole tree in one recursive listing, which S3A makes a flat LIST (1,000 keys a request) instead
   * of a LIST per folder: the folders are rebuilt from the objects' names, and an entry's from its
   * manifest as {@link #listDir} does.
   */
  @Override
  ParallelListings.Lister wholeTreeLister(Path start) throws IOException {
    if (!flatListing) {
      return this::listDir; // FileSystem's own listFiles walks folder by folder: no better
    }
    Map<Path, List<FileStatus>> folders = new HashMap<>();
    Set<Path> seen = new HashSet<>();
    Path top = fs.makeQualified(start);
    RemoteIterator<LocatedFileStatus> files;
    try {
      files = fs.listFiles(top, true);
    } catch (FileNotFoundException e) {
      return folder -> new FileStatus[0];
    }
    String topPath = top.toUri().getPath();
    while (files.hasNext()) {
      FileStatus f = files.next();
      Path parent = f.getPath().getParent();
      if (!parent.toUri().getPath().startsWith(topPath)) {
        continue;
      }
      folders.computeIfAbsent(parent, k -> new ArrayList<>()).add(f);
      // every folder between the start and this object, seen in its parent's listing once
      for (Path p = parent; p.toUri().getPath().length() > topPath.length() && seen.add(p); p = p.getParent()) {
        folders.computeIfAbsent(p.getParent(), k -> new ArrayList<>())
            .add(new FileStatus(0, true, 1, 0, f.getModificationTime(), p));
      }
    }
    return folder -> {
      List<FileStatus> listed = folders.get(fs.makeQualified(folder));
      return listed == null ? new FileStatus[0] : entryView(folder, listed.toArray(new FileStatus[0]));
    };
  }

  private static FileStatus find(FileStatus[] listing, String name) {
    for (FileStatus f : listing) {
      if (f.getPath().getName().equals(name)) {
        return f;
      }
    }
    return null;
  }

  @Override
  boolean filesVisible(Path dir, FileStatus[] listing) throws IOException {
    // a folder an earlier version's writer left with its claim and no commit is a partial entry
    return listing == null || committed(listing) || !contains(listing, Names.CLAIM);
  }

  @Override
  boolean directoryVisible(Path dir) throws IOException {
    FileStatus[] listing = listOrEmpty(dir);
    return filesVisible(dir, listing) && directoryHasContent(listing);
  }

  @Override
  boolean listingDecidesVisibility() {
    return true;
  }

  @Override
  boolean directoryHasContent(FileStatus[] listing) {
    for (FileStatus f : listing) {
      String name = f.getPath().getName();
      if (!Names.reserved(name) || name.equals(Names.COMMIT) && f.getLen() > 0) {
        return true;
      }
    }
    return false;
  }

  @Override
  Instant directoryTime(FileStatus dir, FileStatus[] listing) {
    Long seen = accessed.get(dir.getPath().toUri().getPath());
    if (seen != null) {
      return Instant.ofEpochMilli(seen);
    }
    long t = -1;
    long commit = -1;
    for (FileStatus f : listing) {
      String name = f.getPath().getName();
      if (name.startsWith(Names.ACCESS_PREFIX)) { // written by earlier versions
        try {
          t = Math.max(t, Long.parseLong(name.substring(Names.ACCESS_PREFIX.length())));
        } catch (NumberFormatException e) {
          // not ours
        }
      } else if (name.equals(Names.COMMIT)) {
        commit = f.getModificationTime();
      }
    }
    return Instant.ofEpochMilli(t >= 0 ? t : commit >= 0 ? commit : dir.getModificationTime());
  }

  /** Writes nothing: a hit must not need write access, nor cost a PUT. Remembered for this store's listings. */
  @Override
  void touchEntry(Path entry, Instant at) {
    if (accessed.size() > 100_000) {
      accessed.clear();
    }
    accessed.put(entry.toUri().getPath(), at.toEpochMilli());
  }

  // ---- delete and sweep -----------------------------------------------------------------------

  @Override
  void deletePath(Path p) throws IOException {
    accessed.keySet().removeIf(k -> k.equals(p.toUri().getPath()) || k.startsWith(p.toUri().getPath() + "/"));
    FileStatus st = statusOrNull(p);
    if (st == null) {
      return;
    }
    if (st.isFile()) {
      fs.delete(p, false);
      return;
    }
    FileStatus[] listing = listOrEmpty(p);
    if (contains(listing, Names.COMMIT) || contains(listing, Names.CLAIM)) {
      deleteEntry(p, listing);
      return;
    }
    for (FileStatus child : listing) {
      deletePath(child.getPath());
    }
    fs.delete(p, true);
  }

  /**
   * The manifest first (the entry is gone for readers at once), then the objects listed before: not
   * the folder as a whole, which may meanwhile hold a new writer's attempt.
   */
  private void deleteEntry(Path entry, FileStatus[] listing) throws IOException {
    fs.delete(new Path(entry, Names.COMMIT), false);
    for (FileStatus f : listing) {
      if (!f.getPath().getName().equals(Names.COMMIT)) {
        fs.delete(f.getPath(), true);
      }
    }
    quietly(() -> fs.delete(entry, false)); // the folder marker some stores keep, if now empty
  }

  /** When a sweep record's attempt started: the time in its name (S3 cannot backdate an object), else its own. */
  private static long started(FileStatus record) {
    String name = record.getPath().getName();
    String core = name.substring(Names.RESERVED_PREFIX.length(), name.length() - RECORD_SUFFIX.length());
    int dot = core.lastIndexOf('.');
    if (dot > 0) {
      try {
        return Long.parseLong(core.substring(dot + 1));
      } catch (NumberFormatException e) {
        // an earlier version's record: no time in its name
      }
    }
    return record.getModificationTime();
  }

  private static boolean isRecord(FileStatus f) {
    String name = f.getPath().getName();
    return f.isFile() && name.startsWith(Names.RESERVED_PREFIX) && name.endsWith(RECORD_SUFFIX);
  }

  @Override
  public List<StoreFile> temporaries(Duration age) throws IOException {
    long cutoff = System.currentTimeMillis() - age.toMillis();
    return outage.call(() -> {
      List<StoreFile> out = new ArrayList<>();
      for (FileStatus f : listOrEmpty(tempArea)) {
        if (isRecord(f) && started(f) <= cutoff) {
          out.add(new StoreFile(tempArea.getName() + "/" + f.getPath().getName(), false, f.getLen(),
              Instant.ofEpochMilli(started(f))));
        }
      }
      return out;
    });
  }

  @Override
  public int sweep(Duration age) throws IOException {
    return outage.call(() -> {
      int removed = 0;
      long cutoff = System.currentTimeMillis() - age.toMillis();
      for (FileStatus record : listOrEmpty(tempArea)) {
        if (!isRecord(record) || started(record) > cutoff) {
          continue;
        }
        String name = record.getPath().getName();
        String core = name.substring(Names.RESERVED_PREFIX.length(), name.length() - RECORD_SUFFIX.length());
        String attempt = core.contains(".") ? core.substring(0, core.lastIndexOf('.')) : core;
        Path target;
        try {
          target = resolve(readText(record.getPath()));
        } catch (IllegalArgumentException e) {
          fs.delete(record.getPath(), false); // not a record this store wrote
          continue;
        }
        if (sweepAttempt(target, attempt)) {
          removed++;
        }
        fs.delete(record.getPath(), false);
      }
      return removed;
    });
  }

  /** Deletes what a dead attempt left in its entry folder, unless the entry's manifest is that attempt's. */
  private boolean sweepAttempt(Path target, String attempt) throws IOException {
    FileStatus[] listing = listOrEmpty(target);
    boolean committed = committed(listing);
    if (!committed && contains(listing, Names.CLAIM)) { // an earlier version's writer, dead holding its claim
      if (attempt.equals(readText(new Path(target, Names.CLAIM)))) {
        deleteEntry(target, listing);
        return true;
      }
      return false;
    }
    Manifest m = committed ? manifestOrNull(target) : null;
    if (m != null && m.publication().equals(attempt)) {
      return false; // it committed; only its record was left
    }
    boolean any = false;
    for (FileStatus f : listing) {
      if (f.getPath().getName().startsWith(ATTEMPT_PREFIX + attempt + ".")) {
        fs.delete(f.getPath(), false);
        any = true;
      }
    }
    if (!committed) {
      quietly(() -> fs.delete(target, false)); // an empty folder marker
    }
    return any;
  }

  private String readText(Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      return "";
    }
  }
}
