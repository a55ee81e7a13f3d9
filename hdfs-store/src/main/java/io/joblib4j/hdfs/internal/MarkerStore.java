package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.EntryFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Marker mode, for object stores (S3A, GCS, ABFS, ...), whose rename is a copy and a delete that
 * others can watch half done, but where an object appears whole when its writer closes it.
 *
 * <p><b>Publish</b> writes no temporary and renames nothing:
 * <ol>
 *   <li>a claim record in {@code .jl4j-tmp/} naming the entry (so that {@link #sweep} finds dead
 *       writers by listing one folder);
 *   <li>the entry's {@code .jl4j-claim}, created exclusively — {@code create(overwrite=false)}, with
 *       the conditional-create option ({@code If-None-Match: *} on S3A) where the store offers it;
 *       a writer that finds it taken waits (up to {@code publishWait}) for the other's commit and
 *       reports {@code ALREADY_PRESENT};
 *   <li>each file at its final name, written once, never overwritten;
 *   <li>last, {@code .jl4j-commit}, the manifest (sizes and CRC32Cs): the commit point.
 * </ol>
 * Readers treat the files of a folder that has a claim but no commit as absent, so nobody sees a
 * partial entry; folders with neither are plain folders (replaced files such as function.json).
 * A writer that fails deletes its files, then its claim. <b>Delete</b> removes the commit first (the
 * entry vanishes at once), then the files, then the claim. <b>Touch</b> writes an empty {@code
 * .jl4j-access-<epoch millis>} (object modification times cannot be set). <b>Replace</b> is one
 * whole-object write.
 *
 * <p>Create-if-absent relies on the exclusive create. Where the store cannot make it exclusive
 * (S3 with conditional writes turned off), two writers racing on one entry may both write; readers
 * still never see a partial file, and Memory's checksums catch a mixed entry, which is then
 * recomputed.
 */
final class MarkerStore extends HadoopStore {
  private static final String RECORD_SUFFIX = ".claim";

  MarkerStore(URI location, FileSystem fs, AutoCloseable owner, StoreOptions options) throws IOException {
    super(location, fs, owner, options);
  }

  @Override
  public Publication publish(String entry, List<EntryFile> files) throws IOException {
    Path target = resolveEntry(entry, files);
    return outage.call(() -> {
      long deadline = System.nanoTime() + options.publishWait().toNanos();
      long pause = 50;
      while (true) {
        if (fs.exists(new Path(target, Names.COMMIT))) {
          return Publication.ALREADY_PRESENT;
        }
        Publication p = tryPublish(entry, target, files);
        if (p != null) {
          return p;
        }
        if (System.nanoTime() - deadline > 0) {
          throw new IOException("the entry " + target + " is being written by another writer (it holds the claim);"
              + " gave up waiting after " + options.publishWait().toSeconds() + " s");
        }
        sleep(pause);
        pause = Math.min(pause * 2, 1_000);
      }
    });
  }

  /** Publishes, or returns null if another writer holds the claim. */
  private Publication tryPublish(String entry, Path target, List<EntryFile> files) throws IOException {
    String publication = UUID.randomUUID().toString();
    Path record = new Path(tempArea, Names.RESERVED_PREFIX + publication + RECORD_SUFFIX);
    byte[] entryName = entry.getBytes(StandardCharsets.UTF_8);
    writeFile(record, out -> out.write(entryName), false, false);
    try {
      Path claim = new Path(target, Names.CLAIM);
      try {
        writeFile(claim, out -> out.write(publication.getBytes(StandardCharsets.UTF_8)), false, true);
      } catch (FileAlreadyExistsException e) {
        return null;
      }
      List<Path> written = new ArrayList<>();
      try {
        List<Map.Entry<String, Manifest.FileSum>> sums = new ArrayList<>();
        for (EntryFile f : files) {
          Path p = new Path(target, f.name());
          try {
            sums.add(new SimpleEntry<>(f.name(), writeFile(p, f.writer(), false, true)));
          } catch (FileAlreadyExistsException e) {
            throw e; // another writer's file: not ours to delete
          } catch (IOException | RuntimeException e) {
            written.add(p); // created by us, then failed: ours to delete
            throw e;
          }
          written.add(p);
        }
        byte[] manifest = newManifest(publication, sums).toJson();
        try {
          writeFile(new Path(target, Names.COMMIT), out -> out.write(manifest), false, true);
        } catch (FileAlreadyExistsException e) {
          return Publication.ALREADY_PRESENT; // a store whose create is not exclusive let two writers in
        }
        return Publication.PUBLISHED;
      } catch (FileAlreadyExistsException e) {
        // the store's create was not exclusive and another writer holds the claim too: leave the
        // entry to it (its claim is the same object as ours) and wait for its commit. What we wrote
        // stays: those are the entry's final names, which the other writer may have written too, so
        // deleting "ours" could delete its files under its commit. The manifest's checksums catch a
        // file that ended up with the other writer's bytes.
        return null;
      } catch (IOException | RuntimeException e) {
        for (Path p : written) {
          quietly(() -> fs.delete(p, false));
        }
        quietly(() -> fs.delete(claim, false));
        quietly(() -> fs.delete(target, false)); // the folder marker some stores keep, if now empty
        throw e;
      }
    } finally {
      quietly(() -> fs.delete(record, false));
    }
  }

  /**
   * Options.CreateFileOptionKeys.FS_OPTION_CREATE_CONDITIONAL_OVERWRITE of Hadoop 3.4.2 and later, by
   * value: the Hadoop 3.3 client Spark 3.5 ships has no such class, and ignores an unknown option.
   */
  private static final String CONDITIONAL_OVERWRITE = "fs.option.create.conditional.overwrite";

  /** Exclusive creates also ask for the store's conditional create, checked when the object is committed. */
  @Override
  FSDataOutputStream create(Path p, boolean exclusive) throws IOException {
    if (!exclusive) {
      return fs.create(p, true);
    }
    var builder = fs.createFile(p).overwrite(false).recursive();
    builder.opt(CONDITIONAL_OVERWRITE, true);
    return (FSDataOutputStream) builder.build();
  }

  @Override
  public void replace(String path, byte[] content) throws IOException {
    Path target = resolve(path);
    outage.call(() -> writeFile(target, out -> out.write(content), false, false));
  }

  @Override
  boolean filesVisible(Path dir, FileStatus[] listing) throws IOException {
    if (listing != null) {
      return contains(listing, Names.COMMIT) || !contains(listing, Names.CLAIM);
    }
    return fs.exists(new Path(dir, Names.COMMIT)) || !fs.exists(new Path(dir, Names.CLAIM));
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
      if (!Names.reserved(name) || name.equals(Names.COMMIT)) {
        return true;
      }
    }
    return false;
  }

  @Override
  Instant directoryTime(FileStatus dir, FileStatus[] listing) {
    long t = -1;
    long commit = -1;
    for (FileStatus f : listing) {
      String name = f.getPath().getName();
      if (name.startsWith(Names.ACCESS_PREFIX)) {
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

  @Override
  void touchEntry(Path entry, Instant at) throws IOException {
    FileStatus[] listing = listOrEmpty(entry);
    if (!contains(listing, Names.COMMIT)) {
      return; // deleted meanwhile: do not bring the folder back
    }
    String name = Names.ACCESS_PREFIX + at.toEpochMilli();
    writeFile(new Path(entry, name), out -> { }, false, false);
    for (FileStatus f : listing) {
      String old = f.getPath().getName();
      if (old.startsWith(Names.ACCESS_PREFIX) && !old.equals(name)) {
        quietly(() -> fs.delete(f.getPath(), false));
      }
    }
  }

  @Override
  void deletePath(Path p) throws IOException {
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

  /** The commit first (the entry is gone for readers at once), the claim last (the folder stays hidden). */
  private void deleteEntry(Path entry, FileStatus[] listing) throws IOException {
    Path claim = new Path(entry, Names.CLAIM);
    if (!contains(listing, Names.CLAIM)) {
      writeFile(claim, out -> { }, false, false);
    }
    fs.delete(new Path(entry, Names.COMMIT), false);
    for (FileStatus f : listing) {
      String name = f.getPath().getName();
      if (!name.equals(Names.CLAIM) && !name.equals(Names.COMMIT)) {
        fs.delete(f.getPath(), true);
      }
    }
    fs.delete(claim, false);
    fs.delete(entry, true);
  }

  @Override
  public int sweep(Duration age) throws IOException {
    return outage.call(() -> {
      int removed = 0;
      long cutoff = System.currentTimeMillis() - age.toMillis();
      for (FileStatus record : listOrEmpty(tempArea)) {
        if (!record.getPath().getName().endsWith(RECORD_SUFFIX) || record.getModificationTime() > cutoff) {
          continue;
        }
        String name = record.getPath().getName();
        String publication = name.substring(Names.RESERVED_PREFIX.length(), name.length() - RECORD_SUFFIX.length());
        Path target;
        try {
          target = resolve(readText(record.getPath()));
        } catch (IllegalArgumentException e) {
          fs.delete(record.getPath(), false); // not a record this store wrote
          continue;
        }
        FileStatus[] listing = listOrEmpty(target);
        if (!contains(listing, Names.COMMIT) && contains(listing, Names.CLAIM)
            && publication.equals(readText(new Path(target, Names.CLAIM)))) {
          deleteEntry(target, listing); // this record's writer died between claim and commit
          removed++;
        }
        fs.delete(record.getPath(), false);
      }
      return removed;
    });
  }

  private String readText(Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.FileNotFoundException e) {
      return "";
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for another writer's entry");
    }
  }
}
