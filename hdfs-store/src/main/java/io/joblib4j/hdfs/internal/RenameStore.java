package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.EntryFile;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Rename mode, for file systems whose rename is atomic (HDFS, viewfs onto HDFS, the local file
 * system).
 *
 * <p><b>Publish:</b> the files and the manifest are written into {@code .jl4j-tmp/.jl4j-w-<uuid>/}
 * under the root, each hsync'ed before close, then the folder is renamed onto the entry's path in
 * one NameNode operation that fails if the entry exists. A writer that loses that race reads the
 * winner's manifest, checks that the files it lists are there with their sizes, and reports
 * {@code ALREADY_PRESENT}: Memory then uses the winner's entry. A writer that fails deletes its
 * folder; one that dies leaves it in {@code .jl4j-tmp/}, invisible, for {@link #sweep}, which first
 * recovers the lease of any file still open (so HDFS closes it) and then deletes it.
 *
 * <p><b>Replace</b> writes a temporary file and renames it over the target ({@code Rename.OVERWRITE}
 * on HDFS, rename(2) locally). <b>Touch</b> sets the entry folder's modification time. <b>Delete</b>
 * is the file system's recursive delete (atomic on HDFS).
 */
final class RenameStore extends HadoopStore {
  private static final String WRITER_PREFIX = Names.RESERVED_PREFIX + "w-";
  private final Renamer renamer;

  RenameStore(URI location, FileSystem fs, AutoCloseable owner, StoreOptions options) throws IOException {
    super(location, fs, owner, options);
    this.renamer = Renamer.of(fs);
  }

  @Override
  public Publication publish(String entry, List<EntryFile> files) throws IOException {
    Path target = resolveEntry(entry, files);
    return outage.call(() -> {
      if (fs.exists(target)) {
        return verifyWinner(target);
      }
      String publication = UUID.randomUUID().toString();
      Path temp = new Path(tempArea, WRITER_PREFIX + publication);
      boolean renamed = false;
      try {
        List<Map.Entry<String, Manifest.FileSum>> sums = new ArrayList<>();
        for (EntryFile f : files) {
          sums.add(new SimpleEntry<>(f.name(), writeFile(new Path(temp, f.name()), f.writer(), true, true)));
        }
        byte[] manifest = newManifest(publication, sums).toJson();
        writeFile(new Path(temp, Names.COMMIT), out -> out.write(manifest), true, true);
        fs.mkdirs(target.getParent());
        renamed = renamer.renameNoReplace(temp, target);
        return renamed ? Publication.PUBLISHED : verifyWinner(target);
      } finally {
        if (!renamed) { // once renamed, the temporary is the entry: deleting its old name is a wasted NameNode call
          quietly(() -> fs.delete(temp, true));
        }
      }
    });
  }

  /** The entry exists because another writer won: checks it is whole before Memory uses it. */
  private Publication verifyWinner(Path target) throws IOException {
    Manifest m = manifestOrNull(target);
    if (m == null) {
      return Publication.ALREADY_PRESENT; // not one of ours (or being deleted): left untouched
    }
    for (Map.Entry<String, Manifest.FileSum> f : m.files().entrySet()) {
      FileStatus st = statusOrNull(new Path(target, f.getKey()));
      if (st == null || st.getLen() != f.getValue().bytes()) {
        throw new IOException("the entry " + target + " exists but its file " + f.getKey() + " is "
            + (st == null ? "missing" : st.getLen() + " bytes, not " + f.getValue().bytes())
            + "; it is damaged and will be recomputed when next read");
      }
    }
    return Publication.ALREADY_PRESENT;
  }

  @Override
  public void replace(String path, byte[] content) throws IOException {
    Path target = resolve(path);
    outage.call(() -> {
      Path temp = new Path(tempArea, WRITER_PREFIX + UUID.randomUUID());
      try {
        writeFile(temp, out -> out.write(content), true, true);
        fs.mkdirs(target.getParent());
        renamer.renameReplacing(temp, target);
      } catch (IOException | RuntimeException e) {
        quietly(() -> fs.delete(temp, false));
        throw e;
      }
      return null;
    });
  }

  @Override
  boolean filesVisible(Path dir, FileStatus[] listing) {
    return true; // only complete entries ever appear outside .jl4j-tmp
  }

  @Override
  boolean directoryVisible(Path dir) {
    return true;
  }

  @Override
  Instant directoryTime(FileStatus dir, FileStatus[] listing) {
    return Instant.ofEpochMilli(dir.getModificationTime());
  }

  @Override
  void touchEntry(Path entry, Instant at) throws IOException {
    try {
      fs.setTimes(entry, at.toEpochMilli(), -1);
    } catch (java.io.FileNotFoundException e) {
      // deleted meanwhile (reduceSize, clear): nothing to record
    }
  }

  @Override
  void deletePath(Path p) throws IOException {
    fs.delete(p, true);
  }

  @Override
  public int sweep(Duration age) throws IOException {
    return outage.call(() -> {
      int removed = 0;
      for (FileStatus temp : listOrEmpty(tempArea)) {
        if (youngest(temp) > System.currentTimeMillis() - age.toMillis()) {
          continue; // may belong to a writer still at work
        }
        if (temp.isDirectory()) {
          for (FileStatus f : listOrEmpty(temp.getPath())) {
            Leases.recover(fs, f.getPath(), options.leaseRecoveryTimeout());
          }
        } else {
          Leases.recover(fs, temp.getPath(), options.leaseRecoveryTimeout());
        }
        fs.delete(temp.getPath(), true);
        removed++;
      }
      return removed;
    });
  }

  /** The latest modification time of a temporary and the files in it (a writer's activity). */
  private long youngest(FileStatus temp) throws IOException {
    long t = temp.getModificationTime();
    if (temp.isDirectory()) {
      for (FileStatus f : listOrEmpty(temp.getPath())) {
        t = Math.max(t, f.getModificationTime());
      }
    }
    return t;
  }
}
