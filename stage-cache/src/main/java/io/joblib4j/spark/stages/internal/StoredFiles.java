package io.joblib4j.spark.stages.internal;

import io.joblib4j.Joblib;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * What storage holds, at the moment a stage is called, for the files a Dataset's plan names: each
 * root folder of the input listed again through its Hadoop FileSystem (one recursive listing per
 * root, roots in parallel: on S3A one LIST request per 1,000 objects, on HDFS one NameNode call
 * per 1,000 entries of a folder), never through Spark's cached file index.
 *
 * <p>Each file is described by its length, modification time and the identity its store gives
 * with the listing at no extra cost:
 *
 * <ul>
 *   <li>an object store's ETag (Hadoop's {@link EtagSource}: S3A, ABFS, GCS), which changes with the
 *       content;
 *   <li>an HDFS file's inode id, which a file written again (create with overwrite, a rename over
 *       it) does not keep;
 *   <li>a local file's inode and change time ({@code ctime}), which every write, and setting the
 *       modification time back, moves to the present.
 * </ul>
 *
 * With {@code checksums}, also by its content: HDFS's file checksum ({@code getFileChecksum}), or
 * for a local file a hash of its bytes. A file the plan names that is not there is {@code gone}.
 */
final class StoredFiles {
  /** Reading local files for their checksum, a chunk at a time. */
  private static final int CHUNK = 4 << 20;
  private static final ExecutorService LISTERS = listers();

  /** A file as the plan's index holds it: its path, length and modification time. */
  record Named(String path, long length, long modified) {}

  private StoredFiles() {}

  /**
   * One line per named file, in the order given: its path, the length and modification time the
   * plan holds, then what storage holds now ({@code length modified identity [checksum]}), or
   * {@code gone}.
   *
   * @param conf the Hadoop settings of the read (the session's, with the read's options)
   * @param roots the folders (or files) the plan's index lists
   * @param named the files the plan reads
   * @param checksums whether to add a checksum of each file's content where its store has no ETag
   * @param gone counts the named files that are not there
   */
  static List<String> describe(Configuration conf, List<Path> roots, List<Named> named, boolean checksums,
      AtomicInteger gone) {
    Map<String, FileStatus> now = listAll(conf, roots);
    List<Future<String>> lines = new ArrayList<>(named.size());
    List<String> out = new ArrayList<>(named.size());
    for (Named n : named) {
      FileStatus s = now.get(n.path());
      if (s != null && !checksums) {
        out.add(line(n, s, conf, false));
      } else {
        // a checksum to read, or a file the listing did not show (gone, outside the listed roots, or
        // spelled otherwise): asked for on its own, in parallel, so that only storage says gone
        lines.add(LISTERS.submit(() -> line(n, s != null ? s : statusOf(conf, n.path()), conf, checksums)));
        out.add(null);
      }
    }
    int next = 0;
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i) == null) {
        out.set(i, await(lines.get(next++)));
      }
    }
    for (String l : out) {
      if (l.endsWith("\tgone")) {
        gone.incrementAndGet();
      }
    }
    return out;
  }

  private static String line(Named n, FileStatus s, Configuration conf, boolean checksums) {
    StringBuilder b = new StringBuilder(n.path()).append('\t').append(n.length()).append('\t').append(n.modified());
    if (s == null) {
      return b.append("\tgone").toString();
    }
    b.append('\t').append(s.getLen()).append('\t').append(s.getModificationTime()).append('\t').append(identity(s));
    if (checksums && !(s instanceof EtagSource e && e.getEtag() != null)) {
      b.append('\t').append(checksum(conf, s));
    }
    return b.toString();
  }

  /** The identity a listing gives with the file: an ETag, an HDFS inode id, a local inode and change time. */
  static String identity(FileStatus s) {
    if (s instanceof EtagSource e && e.getEtag() != null) {
      return "etag " + e.getEtag();
    }
    if (s instanceof HdfsFileStatus h) {
      return "inode " + h.getFileId();
    }
    if ("file".equals(s.getPath().toUri().getScheme())) {
      try {
        Map<String, Object> a = Files.readAttributes(Paths.get(s.getPath().toUri()), "unix:ino,ctime");
        return "inode " + a.get("ino") + " changed " + ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS);
      } catch (UnsupportedOperationException | IllegalArgumentException e) {
        return "-"; // not a POSIX file system: length and modification time only
      } catch (IOException e) {
        return "unreadable " + e.getClass().getSimpleName();
      }
    }
    return "-";
  }

  /** HDFS's checksum of the file (MD5 of its blocks' CRCs), or for other stores a hash of its bytes. */
  private static String checksum(Configuration conf, FileStatus s) {
    try {
      FileSystem fs = s.getPath().getFileSystem(conf);
      if (!"file".equals(s.getPath().toUri().getScheme())) {
        FileChecksum c = fs.getFileChecksum(s.getPath());
        if (c != null) {
          return "checksum " + c.getAlgorithmName() + " " + HexFormat.of().formatHex(c.getBytes());
        }
      }
      List<String> chunks = new ArrayList<>();
      try (InputStream in = "file".equals(s.getPath().toUri().getScheme())
          ? Files.newInputStream(Paths.get(s.getPath().toUri())) : fs.open(s.getPath())) {
        byte[] buf = new byte[CHUNK];
        while (true) {
          int n = in.readNBytes(buf, 0, CHUNK);
          if (n > 0) {
            chunks.add(Joblib.hash(n == CHUNK ? buf : java.util.Arrays.copyOf(buf, n)));
          }
          if (n < CHUNK) {
            break;
          }
        }
      }
      return "content " + Joblib.hash(chunks);
    } catch (FileNotFoundException e) {
      return "gone while read";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + s.getPath() + " for its checksum", e);
    }
  }

  /** Every file under the roots now, by path: one recursive listing per root, the roots in parallel. */
  static Map<String, FileStatus> listAll(Configuration conf, List<Path> roots) {
    Map<String, FileStatus> out = new HashMap<>();
    if (roots.size() == 1) {
      listInto(conf, roots.get(0), out);
      return out;
    }
    List<Future<Map<String, FileStatus>>> parts = new ArrayList<>();
    for (Path root : roots) {
      parts.add(LISTERS.submit(() -> {
        Map<String, FileStatus> m = new HashMap<>();
        listInto(conf, root, m);
        return m;
      }));
    }
    for (Future<Map<String, FileStatus>> f : parts) {
      out.putAll(await(f));
    }
    return out;
  }

  private static void listInto(Configuration conf, Path root, Map<String, FileStatus> out) {
    try {
      FileSystem fs = root.getFileSystem(conf);
      if ("hdfs".equals(fs.getScheme())) {
        // folder by folder without block locations: listFiles would ask the NameNode for every
        // file's blocks, which the key does not need (4x the time of a plain listing on MiniDFS)
        listFolders(fs, fs.getFileStatus(root), out);
        return;
      }
      // object stores answer a recursive listFiles with one flat listing: a LIST per 1,000 keys
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
      while (it.hasNext()) {
        LocatedFileStatus s = it.next();
        out.put(s.getPath().toString(), s);
      }
    } catch (FileNotFoundException e) {
      // the root is gone: every file under it is
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the stage's input " + root, e);
    }
  }

  private static void listFolders(FileSystem fs, FileStatus at, Map<String, FileStatus> out) throws IOException {
    if (!at.isDirectory()) {
      out.put(at.getPath().toString(), at);
      return;
    }
    RemoteIterator<FileStatus> it = fs.listStatusIterator(at.getPath());
    while (it.hasNext()) {
      listFolders(fs, it.next(), out);
    }
  }

  private static FileStatus statusOf(Configuration conf, String path) {
    Path p = new Path(path);
    try {
      return p.getFileSystem(conf).getFileStatus(p);
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the status of the stage's input " + path, e);
    }
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing the stage's inputs", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Up to 16 daemon threads, gone after a minute idle: listings and checksums wait on storage, not CPU. */
  private static ExecutorService listers() {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(16, 16, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "joblib4j-stage-inputs-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
