package io.joblib4j.hdfs.bench;

import io.joblib4j.Joblib;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * The Hadoop store's figures on a MiniDFSCluster, each beside a plain FileSystem baseline measured
 * in the same run, alternating rounds so that load from elsewhere on the machine hits both alike:
 *
 * <ul>
 *   <li>a Memory cache hit on a small result vs {@code fs.open} + read of the same output file;
 *   <li>publishing a 1 GiB NDArray entry vs {@code copyFromLocalFile} of the same dump;
 *   <li>reading it back streamed into a heap NDArray vs {@code fs.open} + {@code readFully} of the
 *       same bytes into a new array, and as a verified local copy, mapped, vs {@code copyToLocalFile}.
 * </ul>
 *
 * {@code mvn -B -q -pl hdfs-store -am -Phdfs-bench verify -DskipTests} (arguments: {@code
 * -Dbench.dir=/dev/shm -Dbench.gib=1 -Dbench.rounds=3}).
 */
public final class HdfsStoreBenchmark {
  private HdfsStoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir"))),
        "hdfs-bench-");
    long bytes = (long) (Double.parseDouble(System.getProperty("bench.gib", "1")) * (1L << 30));
    int rounds = Integer.getInteger("bench.rounds", 3);
    MiniDFSCluster dfs = BenchSupport.startDfs(dir);
    try {
      FileSystem fs = dfs.getFileSystem();
      System.out.printf("# HDFS store benchmark: %d cores, java %s, load %s%n", Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"), BenchSupport.load());
      try (Store store = HadoopStores.open(MiniDfs.uri(dfs, "/bench"), MiniDfs.clientConf(dfs),
          Map.of("localCacheDir", dir.resolve("copies").toString(), "localCacheSize", "8G"))) {
        smallHits(store, fs);
        largeArray(store, fs, dir, bytes, rounds);
      }
      System.out.printf("# load at the end: %s%n", BenchSupport.load());
    } finally {
      dfs.shutdown();
      BenchSupport.deleteTree(dir);
    }
  }

  public static double[] small(int n) {
    double[] out = new double[16];
    Arrays.fill(out, n);
    return out;
  }

  private static void smallHits(Store store, FileSystem fs) throws Exception {
    MemoizedFn1<Integer, double[]> f = Memory.builder(store).verbose(0).build().cache(HdfsStoreBenchmark::small);
    f.apply(1);
    String output = store.list("").stream().map(s -> s.path()).filter(p -> p.endsWith("/output.jl4j")).findFirst()
        .orElseThrow();
    org.apache.hadoop.fs.Path raw = new org.apache.hadoop.fs.Path(store.location() + "/" + output);
    int n = 2_000;
    long[] hit = new long[n];
    long[] base = new long[n];
    for (int round = 0; round < 2; round++) { // the first round warms up
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        f.apply(1);
        hit[i] = System.nanoTime() - t0;
        t0 = System.nanoTime();
        try (InputStream in = fs.open(raw)) {
          in.readAllBytes();
        }
        base[i] = System.nanoTime() - t0;
      }
    }
    System.out.printf("small hit (double[16], %d calls): median %.3f ms, p99 %.3f ms | fs.open+read of the same file:"
        + " median %.3f ms, p99 %.3f ms | ratio %.2f%n", n, ms(median(hit)), ms(pct(hit, 0.99)), ms(median(base)),
        ms(pct(base, 0.99)), (double) median(hit) / median(base));
  }

  private static void largeArray(Store store, FileSystem fs, Path dir, long bytes, int rounds) throws Exception {
    long rows = bytes / 8 / 1024;
    Path source = dir.resolve("source.f64");
    NDArray array = NDArray.createMapped(source, DType.FLOAT64, rows, 1024);
    Random r = new Random(1);
    for (long i = 0; i < rows; i += 97) {
      array.setDouble(r.nextDouble(), i, (int) (i % 1024));
    }
    array.force();
    Path dumped = dir.resolve("dumped.jl4j");
    Joblib.dump(array, dumped); // the same bytes the store writes, for the baselines
    long size = Files.size(dumped);
    List<long[]> times = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      times.add(new long[rounds]);
    }
    for (int round = 0; round < rounds; round++) {
      String entry = "big/k" + round;
      org.apache.hadoop.fs.Path rawCopy = new org.apache.hadoop.fs.Path("/raw-" + round + ".jl4j");
      // who goes first alternates, so that neither always pays for the previous round's deletes
      Runnable ours = timed(times.get(0), round, () -> store.publish(entry,
          List.of(new EntryFile("output.jl4j", out -> Joblib.dump(array, out)))));
      Runnable theirs = timed(times.get(1), round, () -> fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(dumped.toUri()), rawCopy));
      if (round % 2 == 0) {
        ours.run();
        theirs.run();
      } else {
        theirs.run();
        ours.run();
      }
      long t0 = System.nanoTime();
      try (InputStream in = store.open(entry + "/output.jl4j").orElseThrow()) {
        NDArray back = Joblib.load(in);
        if (back.nbytes() != array.nbytes()) {
          throw new AssertionError("read back " + back.nbytes() + " bytes");
        }
      }
      times.get(2)[round] = System.nanoTime() - t0;
      t0 = System.nanoTime();
      // the same work without the store: the bytes into a new heap array (as load fills a new NDArray)
      byte[] all = new byte[Math.toIntExact(size)];
      try (org.apache.hadoop.fs.FSDataInputStream in = fs.open(rawCopy)) {
        in.readFully(all);
      }
      times.get(3)[round] = System.nanoTime() - t0;
      all = null;
      t0 = System.nanoTime();
      Path local = store.localFile(entry + "/output.jl4j").orElseThrow();
      NDArray mapped = Joblib.load(local, MmapMode.READ_ONLY);
      times.get(4)[round] = System.nanoTime() - t0;
      if (mapped.nbytes() != array.nbytes()) {
        throw new AssertionError("mapped " + mapped.nbytes());
      }
      t0 = System.nanoTime();
      fs.copyToLocalFile(false, rawCopy, new org.apache.hadoop.fs.Path(dir.resolve("raw-copy-" + round).toUri()), true);
      times.get(5)[round] = System.nanoTime() - t0;
      store.delete(entry);
      fs.delete(rawCopy, false);
      Files.deleteIfExists(dir.resolve("raw-copy-" + round));
      Files.deleteIfExists(local);
      Thread.sleep(3_000); // let the DataNode delete the round's blocks before the next one
      System.out.printf("  round %d: publish %.0f ms, copyFromLocalFile %.0f ms, load(open) %.0f ms, open+read %.0f ms,"
          + " localFile+map %.0f ms, copyToLocalFile %.0f ms (load %s)%n", round, ms(times.get(0)[round]),
          ms(times.get(1)[round]), ms(times.get(2)[round]), ms(times.get(3)[round]), ms(times.get(4)[round]),
          ms(times.get(5)[round]), BenchSupport.load());
    }
    String[] what = {"write: store.publish(Joblib.dump(NDArray))", "read: Joblib.load(store.open(...))",
        "read as a mapped local copy: store.localFile + Joblib.load(READ_ONLY)"};
    String[] baseline = {"fs.copyFromLocalFile of the same dump", "fs.open + readFully of the same bytes into a new byte[]",
        "fs.copyToLocalFile of the same bytes"};
    System.out.printf("1 GiB NDArray (%d bytes), median of %d rounds:%n", size, rounds);
    for (int i = 0; i < 3; i++) {
      long ours = median(times.get(2 * i));
      long theirs = median(times.get(2 * i + 1));
      System.out.printf("  %s: %.0f ms (%.0f MB/s) | %s: %.0f ms (%.0f MB/s) | ratio %.2f%n", what[i], ms(ours),
          size / 1e6 / (ours / 1e9), baseline[i], ms(theirs), size / 1e6 / (theirs / 1e9), (double) ours / theirs);
    }
    array.close();
  }

  @FunctionalInterface
  private interface Io {
    void run() throws Exception;
  }

  private static Runnable timed(long[] into, int round, Io body) {
    return () -> {
      long t0 = System.nanoTime();
      try {
        body.run();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      into[round] = System.nanoTime() - t0;
    };
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private static long median(long[] t) {
    return pct(t, 0.5);
  }

  private static long pct(long[] t, double p) {
    long[] s = t.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) (p * s.length))];
  }
}
