package io.joblib4j.hdfs.internal;

import io.joblib4j.CorruptFileException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * A store read that turns "the data is corrupt on every replica" into {@link CorruptFileException},
 * which Memory answers by deleting the entry and recomputing it — rather than an I/O error, after
 * which it would recompute on every call and never repair the entry. Every other I/O error stays an
 * I/O error: the entry may be fine.
 *
 * <p>HDFS reports such a read as a checksum error or, once it has given up on every replica, as a
 * missing block — which is also what a read gets when the DataNodes holding the block are down. A
 * missing block is corruption if the NameNode lists the file among those with corrupt blocks, or if
 * the block's DataNodes are up and serve it when asked without checksums: they are there, so what
 * failed on each of them was the data. (The NameNode often does not know: a reader that fails on every
 * replica reports none of them, since it cannot tell whether it is itself to blame.)
 */
final class ReadFailures extends FilterInputStream {
  private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

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
    if (e instanceof ChecksumException || e instanceof BlockMissingException missing && corruptOnEveryReplica(missing)) {
      throw new CorruptFileException(where, "the file system found its data corrupt on every replica ("
          + e.getMessage() + ")", e);
    }
    return e;
  }

  private boolean corruptOnEveryReplica(BlockMissingException e) {
    if (!(fs instanceof DistributedFileSystem dfs)) {
      return false;
    }
    try {
      return dfs.listCorruptFileBlocks(file).hasNext() || servedWithoutChecksums(dfs, e.getOffset());
    } catch (IOException | RuntimeException x) {
      return false; // cannot tell: an I/O error, the entry stays
    }
  }

  /**
   * Whether the block at {@code offset} can be read when its checksums are not verified. Asked only
   * if one of its DataNodes accepts a connection: with them all down, the read would only wait out
   * the client's retries again to fail the same way.
   */
  private boolean servedWithoutChecksums(DistributedFileSystem dfs, long offset) throws IOException {
    String src = file.toUri().getPath();
    LocatedBlocks blocks = dfs.getClient().getLocatedBlocks(src, offset, 1);
    LocatedBlock block = blocks == null ? null : blocks.getLocatedBlocks().stream().findFirst().orElse(null);
    if (block == null || !anyAcceptsConnections(block.getLocations())) {
      return false;
    }
    try (InputStream raw = dfs.getClient().open(src, 4096, false)) {
      ((org.apache.hadoop.fs.Seekable) raw).seek(block.getStartOffset());
      return raw.read() >= 0;
    }
  }

  private static boolean anyAcceptsConnections(DatanodeInfo[] nodes) {
    for (DatanodeInfo node : nodes) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(node.getIpAddr(), node.getXferPort()), CONNECT_TIMEOUT_MILLIS);
        return true;
      } catch (IOException e) {
        // down or unreachable: try the next
      }
    }
    return false;
  }
}
