package io.joblib4j.hdfs.internal;

import io.joblib4j.CorruptFileException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * A store read that turns "the data is corrupt on every replica" into {@link CorruptFileException},
 * which Memory answers by deleting the entry and recomputing it — rather than an I/O error, after
 * which it would recompute on every call and never repair the entry. HDFS reports such a read as a
 * checksum error or, once it has tried every replica, as a missing block; the latter also happens
 * when DataNodes are merely down, so it counts as corruption only if the NameNode lists the file
 * among those with corrupt blocks. Every other I/O error stays an I/O error: the entry may be fine.
 */
final class ReadFailures extends FilterInputStream {
  private final FileSystem fs;
  private final Path file;
  private final String where;

  ReadFailures(InputStream in, FileSystem fs, Path file, String where) {
    super(in);
    this.fs = fs;
    this.file = file;
    this.where = where;
  }

  @Override
  public int read() throws IOException {
    try {
      return in.read();
    } catch (IOException e) {
      throw translate(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return in.read(b, off, len);
    } catch (IOException e) {
      throw translate(e);
    }
  }

  @Override
  public long skip(long n) throws IOException {
    try {
      return in.skip(n);
    } catch (IOException e) {
      throw translate(e);
    }
  }

  private IOException translate(IOException e) {
    if (e instanceof ChecksumException || e instanceof BlockMissingException && nameNodeSaysCorrupt()) {
      throw new CorruptFileException(where, "the file system found its data corrupt on every replica ("
          + e.getMessage() + ")", e);
    }
    return e;
  }

  private boolean nameNodeSaysCorrupt() {
    if (!(fs instanceof DistributedFileSystem dfs)) {
      return false;
    }
    try {
      return dfs.listCorruptFileBlocks(file).hasNext();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
