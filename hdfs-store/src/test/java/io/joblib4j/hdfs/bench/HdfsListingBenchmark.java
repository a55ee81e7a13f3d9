package io.joblib4j.hdfs.bench;

import io.joblib4j.CacheListing;
import io.joblib4j.Memory;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * {@code memory.entries()} (what {@code joblib4j ls} and {@code du} read) over a cache of {@code
 * bench.entries} entries (default 10,000, in 10 functions) on a MiniDFSCluster, beside a plain
 * {@code FileSystem.listFiles(root, true)} of the same tree with sizes summed, alternating rounds in
 * the same run. The entries are copies of a real entry written by Memory, written straight to HDFS
 * (8 threads) so that setting up takes a minute, not the hours 10,000 publishes would.
 *
 * {@code mvn -B -q -pl hdfs-store -am -Phdfs-bench verify -DskipTests
 * -Dbench.main=io.joblib4j.hdfs.bench.HdfsListingBenchmark -Dbench.rounds=5}.
 */
public final class HdfsListingBenchmark {
  private HdfsListingBenchmark() {}

  public static double[] result(int seed) {
    return new double[] {seed, seed + 1, seed + 2};
  }

  public static void main(String[] args) throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory(java.nio.file.Path.of(System.getProperty("bench.dir",
        System.getProperty("java.io.tmpdir"))), "hdfs-listbench-");
    int entries = Integer.getInteger("bench.entries", 10_000);
    int rounds = Integer.getInteger("bench.rounds", 5);
    MiniDFSCluster dfs = BenchSupport.startDfs(dir);
    try {
      FileSystem fs = dfs.getFileSystem();
      System.out.printf("# HDFS listing benchmark: %d entries, %d cores, java %s, load %s%n", entries,
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), BenchSupport.load());
      try (Store store = HadoopStores.open(MiniDfs.uri(dfs, "/cache"), MiniDfs.clientConf(dfs),
          Map.of("localCacheDir", dir.resolve("copies").toString()))) {
        Memory memory = Memory.builder(store).verbose(0).build();
        memory.cache(HdfsListingBenchmark::result).apply(1);
        long t0 = System.nanoTime();
        populate(fs, new Path("/cache"), entries);
        System.out.printf("# wrote %d entries in %.1f s%n", entries, (System.nanoTime() - t0) / 1e9);
        long[] ours = new long[rounds];
        long[] plain = new long[rounds];
        long oursBytes = 0;
        long plainBytes = 0;
        for (int r = -1; r < rounds; r++) { // round -1 warms up both
          long a = System.nanoTime();
          CacheListing l = memory.entries();
          long b = System.nanoTime();
          plainBytes = plainListing(fs, new Path("/cache"));
          long c = System.nanoTime();
          if (l.size() != entries + 1) {
            throw new IllegalStateException("listed " + l.size() + " entries, expected " + (entries + 1));
          }
          oursBytes = l.totalBytes();
          if (r >= 0) {
            ours[r] = b - a;
            plain[r] = c - b;
          }
          System.out.printf("round %d: memory.entries() %.0f ms, listFiles(recursive) %.0f ms%n", r, (b - a) / 1e6,
              (c - b) / 1e6);
        }
        System.out.printf("# median: memory.entries() %.0f ms (%d bytes), listFiles(recursive) %.0f ms (%d bytes),"
            + " ratio %.2f; load %s%n", median(ours) / 1e6, oursBytes, median(plain) / 1e6, plainBytes,
            (double) median(ours) / median(plain), BenchSupport.load());
      }
    } finally {
      dfs.shutdown();
      BenchSupport.deleteTree(dir);
    }
  }

  private static void populate(FileSystem fs, Path root, int entries) throws Exception {
    Path folder = null;
    for (var st : fs.listStatus(root)) {
      if (st.isDirectory() && !st.getPath().getName().startsWith(".")) {
        folder = st.getPath();
      }
    }
    Path entry = null;
    for (var st : fs.listStatus(folder)) {
      if (st.isDirectory()) {
        entry = st.getPath();
      }
    }
    byte[] output = read(fs, new Path(entry, "output.jl4j"));
    byte[] metadata = read(fs, new Path(entry, "metadata.json"));
    byte[] function = read(fs, new Path(folder, "function.json"));
    String name = folder.getName();
    String stem = name.substring(0, name.lastIndexOf('-'));
    Random random = new Random(42);
    List<Path> folders = new ArrayList<>();
    for (int f = 0; f < 10; f++) {
      Path fn = new Path(root, stem + f + "-" + String.format("%012x", random.nextLong() & 0xffffffffffffL));
      fs.mkdirs(fn);
      write(fs, new Path(fn, "function.json"), function);
      folders.add(fn);
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    for (int i = 0; i < entries; i++) {
      Path e = new Path(folders.get(i % 10), String.format("%016x%016x", random.nextLong(), random.nextLong()));
      done.add(pool.submit(() -> {
        write(fs, new Path(e, "output.jl4j"), output);
        write(fs, new Path(e, "metadata.json"), metadata);
        return null;
      }));
    }
    for (Future<?> d : done) {
      d.get();
    }
    pool.shutdown();
  }

  /** The baseline: one recursive listing of the tree, every file's length summed. */
  private static long plainListing(FileSystem fs, Path root) throws IOException {
    long total = 0;
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
    while (it.hasNext()) {
      total += it.next().getLen();
    }
    return total;
  }

  private static byte[] read(FileSystem fs, Path p) throws IOException {
    try (var in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private static void write(FileSystem fs, Path p, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(p, false)) {
      out.write(bytes);
    }
  }

  private static long median(long[] t) {
    long[] s = t.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
