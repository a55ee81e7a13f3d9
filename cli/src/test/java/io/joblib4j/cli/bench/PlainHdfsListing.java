package io.joblib4j.cli.bench;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The HDFS baseline of {@link CliListingBenchmark}: a plain {@code FileSystem.listFiles(root, true)}
 * in a JVM of its own (the CLI jar's Hadoop client on the class path, as the command has it), file
 * lengths summed and printed.
 */
public final class PlainHdfsListing {
  private PlainHdfsListing() {}

  public static void main(String[] args) throws IOException {
    URI uri = URI.create(args[0]);
    long total = 0;
    long files = 0;
    try (FileSystem fs = FileSystem.newInstance(uri, new Configuration())) {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(uri), true);
      while (it.hasNext()) {
        total += it.next().getLen();
        files++;
      }
    }
    System.out.println(total + " bytes in " + files + " files");
  }
}
