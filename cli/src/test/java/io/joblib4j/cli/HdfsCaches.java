package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** Caches on HDFS written by real memoized calls, with one damaged entry and one abandoned temporary. */
final class HdfsCaches {
  /** Where a writer that died two hours ago left its temporary, under the cache's root. */
  static final String DEAD_WRITER = ".jl4j-tmp/Fns.square-dead-writer";

  private HdfsCaches() {}

  /**
   * {@link Caches#fill}'s 7 entries at {@code uri}, then one entry of Fns.square damaged (an output of
   * the same size with one byte changed) and a dead writer's temporary. Returns the damaged entry's key.
   */
  static String write(URI uri, Configuration conf) throws IOException {
    try (Store store = HadoopStores.open(uri, conf, Map.of())) {
      Caches.fill(Caches.at(store));
    }
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      Path out = null;
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(uri), true);
      while (it.hasNext() && out == null) {
        Path p = it.next().getPath();
        if (p.getName().equals("output.jl4j") && p.getParent().getParent().getName().contains("Fns.square-")) {
          out = p;
        }
      }
      assertThat(out).isNotNull();
      byte[] b;
      try (InputStream in = fs.open(out)) {
        b = in.readAllBytes();
      }
      b[b.length / 2] ^= 0x5a;
      try (OutputStream o = fs.create(out, true)) {
        o.write(b);
      }
      Path tmp = new Path(uri + "/" + DEAD_WRITER);
      try (OutputStream o = fs.create(new Path(tmp, "output.jl4j"))) {
        o.write(new byte[100]);
      }
      long old = System.currentTimeMillis() - 2 * 3600_000L;
      fs.setTimes(new Path(tmp, "output.jl4j"), old, old);
      fs.setTimes(tmp, old, old);
      return out.getParent().getName();
    }
  }

  /**
   * Every file and folder under {@code uri}, hidden ones included: type, length, modification time
   * and permissions (not the access time, which the NameNode itself updates on reads).
   */
  static Map<String, String> snapshot(URI uri, Configuration conf) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      Path root = new Path(uri);
      Deque<Path> todo = new ArrayDeque<>();
      todo.add(root);
      while (!todo.isEmpty()) {
        for (FileStatus st : fs.listStatus(todo.poll())) {
          out.put(st.getPath().toUri().getPath(), (st.isDirectory() ? "dir " : "file " + st.getLen() + " ")
              + st.getModificationTime() + " " + st.getPermission());
          if (st.isDirectory()) {
            todo.add(st.getPath());
          }
        }
      }
    }
    return out;
  }

  /** Whether {@code path} exists at {@code uri}. */
  static boolean exists(URI uri, Configuration conf, String path) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      return fs.exists(new Path(uri + "/" + path));
    }
  }
}
