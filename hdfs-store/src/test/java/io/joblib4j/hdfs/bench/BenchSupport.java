package io.joblib4j.hdfs.bench;

import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * What the store benchmarks share: the MiniDFSCluster they run on (and deleting its folder), the machine's load to print
 * beside their figures, and the values their memoized functions return (one set, so that the HDFS
 * and S3 tables measure the same entries).
 */
public final class BenchSupport {
  private BenchSupport() {}

  /** A small result: a {@code long[2]}. */
  public static long[] small(int x) {
    return new long[] {x, (long) x * x};
  }

  /** A large result: 8 MiB of {@code long}s. */
  public static long[] large(int x) {
    long[] a = new long[1 << 20];
    Arrays.fill(a, x);
    return a;
  }

  /** An 8 MiB {@code float64} NDArray, for mapped hits. */
  public static NDArray array(int x) {
    NDArray a = NDArray.zeros(DType.FLOAT64, 1024, 1024);
    a.setDouble(x, 0, 0);
    return a;
  }

  /** A running one-DataNode MiniDFSCluster keeping its files under {@code dir/dfs}. */
  public static MiniDFSCluster startDfs(Path dir) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(dir.resolve("dfs").toString())).numDataNodes(1).build();
    dfs.waitActive();
    return dfs;
  }

  /** Deletes {@code dir} and all below it, if it exists (a run's MiniDFS and local copies). */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** The load average, printed beside each run's figures (they are only comparable at like load). */
  public static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
