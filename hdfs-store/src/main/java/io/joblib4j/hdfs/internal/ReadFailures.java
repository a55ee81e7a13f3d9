package io.joblib4j.hdfs.internal;

import io.joblib4j.CorruptFileException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.ChecksumException;

/**
 * A store read that turns "every replica of a block failed its checksum" into {@link
 * CorruptFileException}, which Memory answers by deleting the entry and recomputing it — rather
 * than an I/O error, after which it would recompute on every call and never repair the entry.
 * Other I/O errors (a DataNode restarting, the network) stay I/O errors: the entry may be fine.
 */
final class ReadFailures extends FilterInputStream {
  private final String where;

  ReadFailures(InputStream in, String where) {
    super(in);
    this.where = where;
  }

  @Override
  public int read() throws IOException {
    try {
      return in.read();
    } catch (ChecksumException e) {
      throw corrupt(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return in.read(b, off, len);
    } catch (ChecksumException e) {
      throw corrupt(e);
    }
  }

  @Override
  public long skip(long n) throws IOException {
    try {
      return in.skip(n);
    } catch (ChecksumException e) {
      throw corrupt(e);
    }
  }

  private CorruptFileException corrupt(ChecksumException e) {
    return new CorruptFileException(where, "the file system found its data corrupt (" + e.getMessage() + ")", e);
  }
}
