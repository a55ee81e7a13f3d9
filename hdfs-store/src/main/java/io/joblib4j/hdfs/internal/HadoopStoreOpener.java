package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.Store;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;

/** Opens a Hadoop store: parses the options, builds its own FileSystem instance, picks the protocol. */
public final class HadoopStoreOpener {
  private HadoopStoreOpener() {}

  public static Store open(URI location, Configuration base, Map<String, ?> options) throws IOException {
    if (location.getScheme() == null) {
      throw new IllegalArgumentException("a Hadoop store location needs a scheme (hdfs://namenode/cache,"
          + " s3a://bucket/cache, ...), got " + location);
    }
    URI root = normalize(location);
    StoreOptions parsed = StoreOptions.parse(options);
    // a file system found unreachable a moment ago, by this store or any other: fail now, without
    // waiting out its timeout again (a new Memory, or the next task on an executor, opens a new store)
    Outage.of(root, parsed.outageBackoff()).check();
    Configuration conf = Configurations.forStore(base, parsed.hadoop());
    // our own instance: our fail-fast settings stay ours, and close() cannot close the caller's
    FileSystem fs = FileSystem.newInstance(root, conf);
    try {
      // the raw local file system: entries carry their own checksums, and .crc side files would show up
      FileSystem ops = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
      CommitMode mode = parsed.commit() != null ? parsed.commit() : CommitMode.forScheme(root.getScheme());
      return mode == CommitMode.RENAME ? new RenameStore(root, ops, fs, parsed) : new MarkerStore(root, ops, fs, parsed);
    } catch (IOException | RuntimeException e) {
      fs.close();
      throw e;
    }
  }

  /** The location without a trailing slash, scheme in lowercase. */
  static URI normalize(URI location) {
    String path = location.getPath() == null ? "" : location.getPath();
    while (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (path.isEmpty()) {
      path = "/";
    }
    try {
      return new URI(location.getScheme().toLowerCase(Locale.ROOT), location.getAuthority(), path, null, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("bad store location " + location + ": " + e.getMessage(), e);
    }
  }
}
