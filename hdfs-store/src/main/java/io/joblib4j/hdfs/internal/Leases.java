package io.joblib4j.hdfs.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Recovers the lease of a file a dead writer left open (HDFS), as HBase's RecoverLeaseFSUtils does:
 * {@code recoverLease} starts block recovery and returns true once the file is closed, so it is
 * polled with a backoff. Until then the NameNode would keep the file open for the dead client up to
 * the hard lease limit (an hour), and deleting or reading it races the recovery.
 *
 * <p>Asks {@link DistributedFileSystem} (and its subclasses) rather than Hadoop 3.4's
 * {@code LeaseRecoverable}, which they implement: Spark 3.5 ships the Hadoop 3.3 client, which has
 * the same two methods on the file system but not the interface.
 */
final class Leases {
  private Leases() {}

  /** True once {@code file} is closed (at once on file systems without leases); false after {@code timeout}. */
  static boolean recover(FileSystem fs, Path file, Duration timeout) throws IOException {
    if (!(fs instanceof DistributedFileSystem leases) || leases.isFileClosed(file)) {
      return true;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = 250;
    while (true) {
      if (leases.recoverLease(file)) {
        return true;
      }
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while recovering the lease of " + file);
      }
      pause = Math.min(pause * 2, 4_000);
    }
  }
}
