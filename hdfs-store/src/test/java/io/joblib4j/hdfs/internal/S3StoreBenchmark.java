package io.joblib4j.hdfs.internal;

import io.joblib4j.hdfs.bench.BenchSupport;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.s3.S3Server;
import io.joblib4j.spi.Store;
import java.io.InputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * Memory on S3 (S3Proxy on loopback, through S3A) beside a hand-written S3A baseline doing the same
 * work, in the same run, rounds alternating: requests per operation (S3A's IOStatistics) and the
 * median time. A small hit vs open + read of one small object; a large hit (8 MiB) vs open + read of
 * as many bytes; a miss and its store vs a look for the object and one PUT of as many bytes; a mapped
 * hit (8 MiB NDArray, READ_ONLY, through the local copy cache), the first of an entry in a store (a
 * new JVM's: a store of its own with an empty copy cache) vs open + read into a local file + map, and
 * the same entry again vs a status check of the remote object + map of the local copy.
 * White-box (it counts the store's own FileSystem instance), hence in this package.
 *
 * <p>{@code mvn -B -q -pl hdfs-store -am -Phdfs-bench verify -DskipTests
 * -Dbench.main=io.joblib4j.hdfs.internal.S3StoreBenchmark} ({@code -Dbench.rounds}, operations per
 * round {@code -Dbench.entries}).
 */
public final class S3StoreBenchmark {
  private S3StoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = Integer.getInteger("bench.rounds", 3);
    int ops = Math.min(Integer.getInteger("bench.entries", 200), 200);
    Path dir = Files.createTempDirectory("s3-bench-");
    try (S3Server s3 = S3Server.start()) {
      System.out.printf("# S3 store benchmark: %d cores, java %s, S3Proxy 4.0.0 (filesystem-nio2) on loopback, hadoop-aws 3.5.0, load %s%n",
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), BenchSupport.load());
      for (boolean conditional : new boolean[] {true, false}) {
        Configuration conf = s3.conf(conditional);
        conf.set("fs.s3a.input.stream.type", "classic"); // the baseline reads as the store does
        URI location = s3.newLocation("bench");
        try (Store store = HadoopStoreOpener.open(location, conf, Map.of("localCacheDir", dir.resolve("c" + conditional).toString()));
            FileSystem plain = FileSystem.newInstance(URI.create(location + "-plain"), conf)) {
          Memory memory = Memory.builder(store).verbose(0).build();
          MemoizedFn1<Integer, long[]> smallFn = memory.cache(BenchSupport::small);
          MemoizedFn1<Integer, long[]> largeFn = memory.cache(BenchSupport::large);
          MemoizedFn1<Integer, NDArray> mappedFn = Memory.builder(store).verbose(0).mmapMode(MmapMode.READ_ONLY).build()
              .cache(BenchSupport::array);
          smallFn.apply(-1);
          largeFn.apply(-1);
          mappedFn.apply(1);
          org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(location + "-plain");
          byte[] smallBytes = new byte[120];
          byte[] largeBytes = new byte[8 << 20];
          put(plain, new org.apache.hadoop.fs.Path(base, "small"), smallBytes);
          put(plain, new org.apache.hadoop.fs.Path(base, "large"), largeBytes);
          Path localCopy = dir.resolve("plain-copy" + conditional);
          Stat[] s = new Stat[16];
          // entries published through the Store SPI alone, with files of a small hit's sizes: what the
          // store's read of one costs without Memory around it
          byte[] outputBytes = new byte[200];
          byte[] metadataBytes = new byte[700];
          for (int i = 0; i < ops; i++) {
            store.publish("direct/e" + i, java.util.List.of(io.joblib4j.spi.EntryFile.of("output", outputBytes),
                io.joblib4j.spi.EntryFile.of("metadata.json", metadataBytes)));
          }
          for (int i = 0; i < s.length; i++) {
            s[i] = new Stat();
          }
          // warm-up: the hit's path through Memory and the persistence reader takes a few thousand
          // calls to be compiled; 300 hits in a run (the rounds below) measured it half cold, at
          // 1.3-1.45x the baseline, where a warm hit is the store's read (1.00-1.05x)
          int warmup = Integer.getInteger("bench.warmup", 4000);
          for (int i = 0; i < warmup; i++) {
            smallFn.apply(-1);
            read(plain, new org.apache.hadoop.fs.Path(base, "small"));
            try (InputStream in = store.open("direct/e" + (i % ops) + "/output").orElseThrow()) {
              in.readAllBytes();
            }
          }
          int key = 0;
          for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < ops; i++) {
              int k = key++;
              s[0].time(store, () -> smallFn.apply(k)); // miss + store
              s[1].time(plain, () -> {
                org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(base, "m" + k);
                if (!plain.exists(p)) {
                  put(plain, p, smallBytes);
                }
              });
              s[2].time(store, () -> smallFn.apply(k)); // small hit
              s[3].time(plain, () -> read(plain, new org.apache.hadoop.fs.Path(base, "small")));
              s[12].time(store, () -> smallFn.apply(k / 2)); // an entry stored earlier in the run
              s[13].time(plain, () -> read(plain, new org.apache.hadoop.fs.Path(base, "m" + k))); // what it just PUT
              store.publish("fresh/e" + k, java.util.List.of(io.joblib4j.spi.EntryFile.of("output", outputBytes),
                  io.joblib4j.spi.EntryFile.of("metadata.json", metadataBytes)));
              s[14].time(store, () -> {
                try (InputStream in = store.open("fresh/e" + k + "/output").orElseThrow()) {
                  in.readAllBytes();
                }
              });
              // what a publish leaves on the server, by hand: two objects in a new folder, then a read of the first
              org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(base, "f" + k);
              put(plain, new org.apache.hadoop.fs.Path(folder, "one"), metadataBytes);
              put(plain, new org.apache.hadoop.fs.Path(folder, "two"), new byte[0]);
              s[15].time(plain, () -> read(plain, new org.apache.hadoop.fs.Path(folder, "one")));
              s[11].time(store, () -> {
                try (InputStream in = store.open("direct/e" + (k % ops) + "/output").orElseThrow()) {
                  in.readAllBytes();
                }
              });
            }
            for (int i = 0; i < ops / 10; i++) {
              s[4].time(store, () -> largeFn.apply(-1)); // large hit
              s[5].time(plain, () -> read(plain, new org.apache.hadoop.fs.Path(base, "large")));
            }
            for (int i = 0; i < ops / 10; i++) {
              // a store of its own with an empty copy cache: the entry's first mapped hit, as in a new JVM
              Path copies = dir.resolve("m" + conditional + "-" + r + "-" + i);
              try (Store fresh = HadoopStoreOpener.open(location, conf, Map.of("localCacheDir", copies.toString()))) {
                MemoizedFn1<Integer, NDArray> freshFn = Memory.builder(fresh).verbose(0).mmapMode(MmapMode.READ_ONLY).build()
                    .cache(BenchSupport::array);
                s[6].time(fresh, () -> freshFn.apply(1));
                s[8].time(fresh, () -> freshFn.apply(1));
                // the same in a store of its own for a small entry: what a function's first call in a JVM costs besides its entry
                MemoizedFn1<Integer, long[]> freshSmall = Memory.builder(fresh).verbose(0).build().cache(BenchSupport::small);
                s[10].time(fresh, () -> freshSmall.apply(-1));
              }
              Files.deleteIfExists(localCopy);
              s[7].time(plain, () -> {
                try (InputStream in = plain.open(new org.apache.hadoop.fs.Path(base, "large"))) {
                  Files.copy(in, localCopy, StandardCopyOption.REPLACE_EXISTING);
                }
                map(localCopy);
              });
              s[9].time(plain, () -> {
                plain.getFileStatus(new org.apache.hadoop.fs.Path(base, "large")); // is the remote object still the one copied?
                map(localCopy);
              });
            }
          }
          System.out.printf("conditional writes %s%n", conditional ? "on" : "off");
          String[] names = {"miss + store", "baseline: exists + PUT", "small hit", "baseline: open + read", "large hit (8 MiB)",
              "baseline: open + read 8 MiB", "mapped hit, first in a store", "baseline: open + copy to file + map",
              "mapped hit, again", "baseline: getFileStatus + map",
              "small hit, first in a store", "store.open + read of an entry's output",
              "small hit of an entry stored earlier",
              "baseline: open + read of the object it just PUT",
              "store.open + read of an entry it just published",
              "baseline: read of 1 of 2 objects it just PUT in a new folder"};
          for (int i = 0; i < s.length; i++) {
            System.out.printf("  %-36s median %7.2f ms  requests/op %5.2f  (%s)%n", names[i], s[i].median() / 1e6,
                s[i].requests / (double) s[i].n, s[i].kinds);
          }
          System.out.printf("  load %s%n", BenchSupport.load());
        }
      }
    }
  }

  private static void map(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()).get(0);
    }
  }

  private static void put(FileSystem fs, org.apache.hadoop.fs.Path p, byte[] b) throws Exception {
    var builder = fs.createFile(p).overwrite(true);
    builder.opt("fs.s3a.create.performance", true);
    try (FSDataOutputStream out = (FSDataOutputStream) builder.build()) {
      out.write(b);
    }
  }

  private static void read(FileSystem fs, org.apache.hadoop.fs.Path p) throws Exception {
    try (InputStream in = fs.open(p)) {
      in.readAllBytes();
    }
  }

  interface Op {
    void run() throws Exception;
  }

  private static final class Stat {
    long[] nanos = new long[1 << 12];
    int n;
    long requests;
    Map<String, Long> kinds = new java.util.TreeMap<>();

    void time(Object counted, Op op) throws Exception {
      FileSystem fs = counted instanceof HadoopStore h ? h.fs : (FileSystem) counted;
      Map<String, Long> before = ((IOStatisticsSource) fs).getIOStatistics().counters();
      before = new java.util.HashMap<>(before);
      long t0 = System.nanoTime();
      op.run();
      long t = System.nanoTime() - t0;
      Map<String, Long> d = S3RequestsIT.delta(before, ((IOStatisticsSource) fs).getIOStatistics().counters());
      requests += S3RequestsIT.requests(d);
      d.forEach((k, v) -> kinds.merge(k.replace("action_http_", "").replace("object_", "").replace("_request", ""), v, Long::sum));
      if (n == nanos.length) {
        nanos = Arrays.copyOf(nanos, n * 2);
      }
      nanos[n++] = t;
    }

    double median() {
      long[] c = Arrays.copyOf(nanos, n);
      Arrays.sort(c);
      return c[n / 2];
    }
  }
}
