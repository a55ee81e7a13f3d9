package io.joblib4j.hdfs.bench;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * What each Memory operation costs in NameNode RPCs on a MiniDFSCluster (counted by the NameNode's
 * per-method RPC metrics, {@link NameNodeRpcs}), beside a hand-written FileSystem baseline doing the
 * same work, in the same run, call by call alternating: small hit vs open + read; large hit (8 MiB)
 * vs open + read; mapped hit (a verified local copy) vs a status check of the remote file and a map
 * of a local copy; miss + store vs create + write + close + rename; {@code entries()} of a cache of
 * many entries vs a recursive {@code listFiles}. A thousand executors hitting one cache are a
 * thousand clients of one NameNode.
 *
 * <p>{@code mvn -B -q -pl hdfs-store -am -Phdfs-bench verify -DskipTests
 * -Dbench.main=io.joblib4j.hdfs.bench.HdfsRequestsBenchmark} ({@code -Dbench.ops} calls per operation,
 * {@code -Dbench.listEntries} entries listed).
 */
public final class HdfsRequestsBenchmark {
  private HdfsRequestsBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir"))),
        "hdfs-requests-");
    int ops = Integer.getInteger("bench.ops", 100);
    int listEntries = Integer.getInteger("bench.listEntries", 1000);
    MiniDFSCluster dfs = BenchSupport.startDfs(dir);
    try {
      FileSystem fs = dfs.getFileSystem();
      NameNodeRpcs rpcs = new NameNodeRpcs(dfs);
      System.out.printf("# HDFS requests benchmark: %d cores, java %s, load %s%n", Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"), BenchSupport.load());
      try (Store store = HadoopStores.open(MiniDfs.uri(dfs, "/cache"), MiniDfs.clientConf(dfs),
          Map.of("localCacheDir", dir.resolve("copies").toString()))) {
        Memory memory = Memory.builder(store).verbose(0).build();
        Memory mapping = Memory.builder(store).verbose(0).mmapMode(MmapMode.READ_ONLY).build();
        MemoizedFn1<Integer, long[]> smallFn = memory.cache(BenchSupport::small);
        MemoizedFn1<Integer, long[]> largeFn = memory.cache(BenchSupport::large);
        MemoizedFn1<Integer, NDArray> mappedFn = mapping.cache(BenchSupport::array);
        smallFn.apply(-1);
        largeFn.apply(1);
        mappedFn.apply(1);
        org.apache.hadoop.fs.Path plain = new org.apache.hadoop.fs.Path("/plain");
        org.apache.hadoop.fs.Path smallFile = new org.apache.hadoop.fs.Path(plain, "small");
        org.apache.hadoop.fs.Path largeFile = new org.apache.hadoop.fs.Path(plain, "large");
        write(fs, smallFile, new byte[120]);
        write(fs, largeFile, new byte[8 << 20]);
        Path localCopy = dir.resolve("local-copy");
        Files.write(localCopy, new byte[8 << 20]);
        Stat[] s = new Stat[10];
        for (int i = 0; i < s.length; i++) {
          s[i] = new Stat(rpcs);
        }
        for (int i = 0; i < ops; i++) {
          int k = i;
          s[0].time(() -> smallFn.apply(k)); // miss + store
          s[1].time(() -> {
            org.apache.hadoop.fs.Path tmp = new org.apache.hadoop.fs.Path(plain, "tmp-" + k);
            write(fs, tmp, new byte[120]);
            fs.rename(tmp, new org.apache.hadoop.fs.Path(plain, "v-" + k));
          });
          s[8].time(() -> smallFn.apply(k)); // the first hit of an entry: its access time is recorded
          s[9].time(() -> read(fs, smallFile));
          s[2].time(() -> smallFn.apply(-1)); // an entry hit again: at most one access time a minute
          s[3].time(() -> read(fs, smallFile));
          s[4].time(() -> largeFn.apply(1));
          s[5].time(() -> read(fs, largeFile));
          s[6].time(() -> mappedFn.apply(1));
          s[7].time(() -> {
            fs.getFileStatus(largeFile); // is the remote file still the one copied?
            try (FileChannel ch = FileChannel.open(localCopy, StandardOpenOption.READ)) {
              ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()).get(0);
            }
          });
        }
        String[] names = {"miss + store (long[2])", "baseline: create + write 120 B + close + rename",
            "small hit (long[2]), the same entry again", "baseline: open + read of 120 B", "large hit (long[1 << 20], 8 MiB)",
            "baseline: open + read of 8 MiB", "mapped hit (8 MiB NDArray, READ_ONLY, local copy cache)",
            "baseline: getFileStatus + map of a local copy", "small hit, the first of an entry (after its store)",
            "baseline: open + read of 120 B"};
        for (int i = 0; i < names.length; i++) {
          s[i].print(names[i], ops);
        }
      }
      // entries() of a cache of many entries, on a store of its own, beside a recursive listFiles of it
      try (Store store = HadoopStores.open(MiniDfs.uri(dfs, "/listing"), MiniDfs.clientConf(dfs),
          Map.of("localCacheDir", dir.resolve("copies2").toString()))) {
        Memory memory = Memory.builder(store).verbose(0).build();
        MemoizedFn1<Integer, long[]> fn = memory.cache(BenchSupport::small);
        for (int i = 0; i < listEntries; i++) {
          fn.apply(i);
        }
        System.out.printf("# %d entries written, load %s%n", listEntries, BenchSupport.load());
        Stat[] l = {new Stat(rpcs), new Stat(rpcs)};
        for (int r = 0; r < 3; r++) {
          l[0].time(() -> check(memory.entries().size(), listEntries));
          l[1].time(() -> {
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path("/listing"), true);
            while (it.hasNext()) {
              it.next();
            }
          });
        }
        l[0].print("entries() of " + listEntries, 3);
        l[1].print("baseline: listFiles(root, recursive)", 3);
      }
      System.out.printf("# load at the end: %s%n", BenchSupport.load());
    } finally {
      dfs.shutdown();
      BenchSupport.deleteTree(dir);
    }
  }

  private static void check(int listed, int expected) {
    if (listed != expected) {
      throw new AssertionError("listed " + listed + " entries, expected " + expected);
    }
  }

  private static void write(FileSystem fs, org.apache.hadoop.fs.Path p, byte[] bytes) throws IOException {
    try (OutputStream out = fs.create(p, false)) {
      out.write(bytes);
    }
  }

  private static void read(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      in.readAllBytes();
    }
  }

  @FunctionalInterface
  interface Op {
    void run() throws Exception;
  }

  /** Times and NameNode RPCs of one operation, call by call. */
  private static final class Stat {
    final NameNodeRpcs rpcs;
    final List<Long> nanos = new ArrayList<>();
    final Map<String, Long> calls = new TreeMap<>();

    Stat(NameNodeRpcs rpcs) {
      this.rpcs = rpcs;
    }

    void time(Op op) throws Exception {
      Map<String, Long> before = rpcs.counts();
      long t0 = System.nanoTime();
      op.run();
      nanos.add(System.nanoTime() - t0);
      NameNodeRpcs.delta(before, rpcs.counts()).forEach((k, v) -> calls.merge(k, v, Long::sum));
    }

    void print(String what, int n) {
      long[] t = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
      long total = calls.values().stream().mapToLong(Long::longValue).sum();
      StringBuilder by = new StringBuilder();
      calls.forEach((k, v) -> by.append(by.length() == 0 ? "" : ", ").append(String.format("%.2f %s", (double) v / n, k)));
      System.out.printf("%-60s median %8.2f ms | %.2f RPCs/op: %s | load %s%n", what, t[t.length / 2] / 1e6,
          (double) total / n, by, BenchSupport.load());
    }
  }
}
