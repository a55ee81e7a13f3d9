package io.joblib4j.cli.bench;

import io.joblib4j.Memory;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * {@code joblib4j ls} and {@code du} end to end, as a user runs them ({@code java -jar
 * joblib4j-cli.jar ls LOCATION}: JVM start included), beside a plain recursive listing of the same
 * tree in a JVM of its own, the commands alternating within each round; prints each round and the
 * medians with their ratio to the baseline (BENCHMARKS.md, "Command line").
 *
 * <ul>
 *   <li>local: {@code bench.localEntries} entries (100,000) in 10 functions; baselines {@link
 *       PlainWalk} ({@code Files.walkFileTree} with every file's attributes) and {@code find -printf}.
 *   <li>hdfs: {@code bench.hdfsEntries} entries (10,000) in 10 functions on a MiniDFSCluster this
 *       JVM starts; baseline {@link PlainHdfsListing} ({@code FileSystem.listFiles(root, true)} with
 *       the CLI jar's Hadoop client).
 * </ul>
 *
 * The entries are copies of a real entry written by a memoized call, under random keys: a listing
 * reads names, sizes and times, so they list as real entries would.
 *
 * <p>{@code mvn -B -q -pl cli -am -Pcli-bench verify -DskipTests [-Dbench.what=local|hdfs]
 * [-Dbench.rounds=5] [-Dbench.dir=/dev/shm]}
 */
public final class CliListingBenchmark {
  private static final int FUNCTIONS = 10;

  private CliListingBenchmark() {}

  public static double[] result(int seed) {
    return new double[] {seed, seed + 1, seed + 2};
  }

  public static void main(String[] args) throws Exception {
    Path cliJar = Path.of(System.getProperty("bench.cliJar"));
    Path base = Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir")));
    int rounds = Integer.getInteger("bench.rounds", 5);
    String what = System.getProperty("bench.what", "local,hdfs");
    System.out.printf("# joblib4j ls/du end to end: %d cores, java %s, %s, load %s%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), cliJar.getFileName(), load());
    if (what.contains("local")) {
      local(cliJar, base, Integer.getInteger("bench.localEntries", 100_000), rounds);
    }
    if (what.contains("hdfs")) {
      hdfs(cliJar, base, Integer.getInteger("bench.hdfsEntries", 10_000), rounds);
    }
  }

  private static void local(Path cliJar, Path base, int entries, int rounds) throws Exception {
    Path cache = base.resolve("jl4j-cli-listbench-" + entries);
    if (!Files.exists(cache.resolve("complete"))) {
      deleteTree(cache);
      long t0 = System.nanoTime();
      writeLocalTree(cache, entries);
      System.out.printf("# wrote %d local entries in %.1f s%n", entries, (System.nanoTime() - t0) / 1e9);
    }
    Map<String, List<String>> commands = new LinkedHashMap<>();
    commands.put("plain walk (JVM)", List.of(java(), "-cp", classes(), PlainWalk.class.getName(), cache.toString()));
    commands.put("joblib4j ls", List.of(java(), "-jar", cliJar.toString(), "ls", cache.toString()));
    commands.put("joblib4j du", List.of(java(), "-jar", cliJar.toString(), "du", cache.toString()));
    commands.put("find -printf", List.of("find", cache.toString(), "-printf", "%s %T@ %p\\n"));
    measure("local, " + entries + " entries", commands, rounds);
    System.out.println("# the tree stays for the next run: " + cache.getFileName() + " under bench.dir");
  }

  private static void hdfs(Path cliJar, Path base, int entries, int rounds) throws Exception {
    Path dir = Files.createTempDirectory(base, "jl4j-cli-hdfsbench-");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(dir.resolve("dfs").toString())).numDataNodes(1).build();
    try {
      dfs.waitActive();
      URI uri = MiniDfs.uri(dfs, "/cache");
      long t0 = System.nanoTime();
      try (Store store = HadoopStores.open(uri, MiniDfs.clientConf(dfs), Map.of())) {
        Memory.builder(store).verbose(0).build().cache(CliListingBenchmark::result).apply(1);
      }
      writeHdfsTree(dfs.getFileSystem(), new org.apache.hadoop.fs.Path("/cache"), entries);
      System.out.printf("# wrote %d entries to MiniDFS in %.1f s%n", entries, (System.nanoTime() - t0) / 1e9);
      Map<String, List<String>> commands = new LinkedHashMap<>();
      commands.put("listFiles(recursive) (JVM)", List.of(java(), "-cp", cliJar + File.pathSeparator + classes(),
          PlainHdfsListing.class.getName(), uri.toString()));
      commands.put("joblib4j ls", List.of(java(), "-jar", cliJar.toString(), "ls", uri.toString()));
      commands.put("joblib4j du", List.of(java(), "-jar", cliJar.toString(), "du", uri.toString()));
      measure("MiniDFS, " + entries + " entries", commands, rounds);
    } finally {
      dfs.shutdown();
      deleteTree(dir);
    }
  }

  /** Runs each command once per round, in turn (round 0 warms up), and prints medians and ratios. */
  private static void measure(String what, Map<String, List<String>> commands, int rounds) throws Exception {
    Map<String, long[]> times = new LinkedHashMap<>();
    commands.keySet().forEach(k -> times.put(k, new long[rounds]));
    for (int r = 0; r <= rounds; r++) {
      StringBuilder line = new StringBuilder(r == 0 ? "warm-up:" : "round " + r + ":");
      for (Map.Entry<String, List<String>> c : commands.entrySet()) {
        long ns = run(c.getValue());
        if (r > 0) {
          times.get(c.getKey())[r - 1] = ns;
        }
        line.append(String.format(Locale.ROOT, "  %s %.2f s", c.getKey(), ns / 1e9));
      }
      System.out.println(line);
    }
    String baseline = commands.keySet().iterator().next();
    double b = median(times.get(baseline));
    System.out.printf("# %s, median of %d rounds (load %s):%n", what, rounds, load());
    times.forEach((k, t) -> System.out.printf(Locale.ROOT, "#   %-28s %6.2f s  %.2fx the %s%n", k, median(t) / 1e9,
        median(t) / b, baseline));
  }

  /** Wall-clock nanoseconds of one run; its output discarded, its exit code checked. */
  private static long run(List<String> command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().remove("HADOOP_CONF_DIR");
    long t0 = System.nanoTime();
    int code = pb.start().waitFor();
    long ns = System.nanoTime() - t0;
    if (code != 0) {
      throw new IllegalStateException(String.join(" ", command) + " exited with " + code);
    }
    return ns;
  }

  /** One entry written by a memoized call, copied under random keys into 10 functions' folders. */
  private static void writeLocalTree(Path cache, int entries) throws IOException {
    Memory.builder(cache).verbose(0).build().cache(CliListingBenchmark::result).apply(1);
    Path folder;
    Path entry;
    try (Stream<Path> s = Files.list(cache)) {
      folder = s.filter(p -> !p.getFileName().toString().startsWith(".")).findFirst().orElseThrow();
    }
    try (Stream<Path> s = Files.list(folder)) {
      entry = s.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    byte[] output = Files.readAllBytes(entry.resolve("output.jl4j"));
    byte[] metadata = Files.readAllBytes(entry.resolve("metadata.json"));
    byte[] function = Files.readAllBytes(folder.resolve("function.json"));
    deleteTree(folder);
    Random random = new Random(42);
    String name = folder.getFileName().toString();
    String stem = name.substring(0, name.lastIndexOf('-'));
    for (int f = 0; f < FUNCTIONS; f++) {
      Path fn = cache.resolve(stem + f + "-" + String.format("%012x", random.nextLong() & 0xffffffffffffL));
      Files.createDirectories(fn);
      Files.write(fn.resolve("function.json"), function);
      for (int i = f; i < entries; i += FUNCTIONS) {
        Path e = fn.resolve(String.format("%016x%016x", random.nextLong(), random.nextLong()));
        Files.createDirectory(e);
        Files.write(e.resolve("output.jl4j"), output);
        Files.write(e.resolve("metadata.json"), metadata);
      }
    }
    Files.write(cache.resolve("complete"), new byte[0]);
  }

  /** As {@link #writeLocalTree}, straight to HDFS with 8 threads (10,000 publishes would take far longer). */
  private static void writeHdfsTree(FileSystem fs, org.apache.hadoop.fs.Path root, int entries) throws Exception {
    org.apache.hadoop.fs.Path folder = null;
    for (var st : fs.listStatus(root)) {
      if (st.isDirectory() && !st.getPath().getName().startsWith(".")) {
        folder = st.getPath();
      }
    }
    org.apache.hadoop.fs.Path entry = null;
    for (var st : fs.listStatus(folder)) {
      if (st.isDirectory()) {
        entry = st.getPath();
      }
    }
    byte[] output = read(fs, new org.apache.hadoop.fs.Path(entry, "output.jl4j"));
    byte[] metadata = read(fs, new org.apache.hadoop.fs.Path(entry, "metadata.json"));
    byte[] function = read(fs, new org.apache.hadoop.fs.Path(folder, "function.json"));
    fs.delete(folder, true);
    String name = folder.getName();
    String stem = name.substring(0, name.lastIndexOf('-'));
    Random random = new Random(42);
    List<org.apache.hadoop.fs.Path> folders = new ArrayList<>();
    for (int f = 0; f < FUNCTIONS; f++) {
      org.apache.hadoop.fs.Path fn = new org.apache.hadoop.fs.Path(root,
          stem + f + "-" + String.format("%012x", random.nextLong() & 0xffffffffffffL));
      fs.mkdirs(fn);
      write(fs, new org.apache.hadoop.fs.Path(fn, "function.json"), function);
      folders.add(fn);
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < entries; i++) {
        org.apache.hadoop.fs.Path e = new org.apache.hadoop.fs.Path(folders.get(i % FUNCTIONS),
            String.format("%016x%016x", random.nextLong(), random.nextLong()));
        done.add(pool.submit(() -> {
          write(fs, new org.apache.hadoop.fs.Path(e, "output.jl4j"), output);
          write(fs, new org.apache.hadoop.fs.Path(e, "metadata.json"), metadata);
          return null;
        }));
      }
      for (Future<?> d : done) {
        d.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static byte[] read(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
    try (var in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private static void write(FileSystem fs, org.apache.hadoop.fs.Path p, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(p, false)) {
      out.write(bytes);
    }
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The folder (or jar) this class was loaded from: the baselines' class path. */
  private static String classes() throws Exception {
    return Path.of(CliListingBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static double median(long[] t) {
    long[] s = t.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(p)) {
      for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(q);
      }
    }
  }
}
