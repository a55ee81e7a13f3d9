package io.joblib4j.hdfs.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The atomic rename each file system offers. {@code FileSystem.rename(src, dst)} is not enough on
 * its own for folders: when {@code dst} exists HDFS moves {@code src} <em>into</em> it and returns
 * true, and the local file system falls back to copying. So HDFS uses the NameNode's rename with
 * {@code Rename.NONE} (atomic, fails if {@code dst} exists), the local file system rename(2), and
 * anything else {@code rename/2} followed by a check that the source did not land inside a winner.
 */
abstract class Renamer {
  /** Renames {@code src} to {@code dst} atomically; false if {@code dst} exists (another writer won). */
  abstract boolean renameNoReplace(Path src, Path dst) throws IOException;

  /** Renames the file {@code src} over {@code dst}, atomically where the file system can. */
  abstract void renameReplacing(Path src, Path dst) throws IOException;

  static Renamer of(FileSystem fs) {
    if (fs instanceof DistributedFileSystem dfs) {
      return new Hdfs(dfs);
    }
    if (fs instanceof RawLocalFileSystem local) {
      return new Local(local);
    }
    return new Generic(fs);
  }

  private static final class Hdfs extends Renamer {
    private final DistributedFileSystem dfs;

    Hdfs(DistributedFileSystem dfs) {
      this.dfs = dfs;
    }

    @Override
    boolean renameNoReplace(Path src, Path dst) throws IOException {
      try {
        dfs.rename(src, dst, Options.Rename.NONE);
        return true;
      } catch (FileAlreadyExistsException e) {
        return false;
      }
    }

    @Override
    void renameReplacing(Path src, Path dst) throws IOException {
      dfs.rename(src, dst, Options.Rename.OVERWRITE);
    }
  }

  private static final class Local extends Renamer {
    private final RawLocalFileSystem fs;

    Local(RawLocalFileSystem fs) {
      this.fs = fs;
    }

    @Override
    boolean renameNoReplace(Path src, Path dst) throws IOException {
      java.nio.file.Path target = fs.pathToFile(dst).toPath();
      try {
        // rename(2): replaces an empty folder, fails on a non-empty one; entries are never empty
        Files.move(fs.pathToFile(src).toPath(), target, StandardCopyOption.ATOMIC_MOVE);
        return true;
      } catch (IOException e) {
        if (Files.exists(target)) {
          return false;
        }
        throw e;
      }
    }

    @Override
    void renameReplacing(Path src, Path dst) throws IOException {
      Files.move(fs.pathToFile(src).toPath(), fs.pathToFile(dst).toPath(), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static final class Generic extends Renamer {
    private final FileSystem fs;

    Generic(FileSystem fs) {
      this.fs = fs;
    }

    @Override
    boolean renameNoReplace(Path src, Path dst) throws IOException {
      if (fs.rename(src, dst)) {
        Path movedInto = new Path(dst, src.getName());
        if (fs.exists(movedInto)) { // dst existed: src went inside the winner's folder
          fs.delete(movedInto, true);
          return false;
        }
        return true;
      }
      if (fs.exists(dst)) {
        return false;
      }
      throw new IOException("cannot rename " + src + " to " + dst + " on " + fs.getUri());
    }

    @Override
    void renameReplacing(Path src, Path dst) throws IOException {
      if (fs.rename(src, dst)) {
        return;
      }
      // rename/2 does not replace on HDFS-like file systems: readers briefly see no file, never a torn one
      fs.delete(dst, false);
      if (!fs.rename(src, dst)) {
        throw new IOException("cannot rename " + src + " over " + dst + " on " + fs.getUri());
      }
    }
  }
}
