package io.joblib4j.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Memory and ChunkedArray on HDFS from real executor JVMs ({@code local-cluster[2,1,1024]}): the
 * executors get Spark and Hadoop on their class path, as on a cluster, and joblib4j's jars only
 * through {@code setJars}, as a user ships them.
 */
@Timeout(300)
class SparkExecutorsIT {
  private static MiniDFSCluster dfs;
  private static JavaSparkContext sc;
  private static Path localCache;

  /** Functions the executors run: in the tests jar, so they must be shipped. */
  public static final class Work implements Serializable {
    static final AtomicInteger COMPUTED = new AtomicInteger();

    private Work() {}

    public static long square(int x) {
      COMPUTED.incrementAndGet();
      return (long) x * x;
    }

    /** Slow enough that two tasks started together are both computing when they publish. */
    public static String slowGreeting(int x) throws InterruptedException {
      COMPUTED.incrementAndGet();
      Thread.sleep(1_500);
      return "hello " + x + " from a task";
    }
  }

  @BeforeAll
  static void start() throws Exception {
    dfs = MiniDfs.start(1, new Configuration());
    localCache = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "it-local-cache-");
    Files.createDirectories(Path.of(System.getProperty("joblib4j.it.sparkHome"), "jars"));
    SparkConf conf = LocalCluster.conf("joblib4j-hdfs-store-it")
        .set("spark.hadoop.joblib4j.it.setting", "from spark.hadoop.*");
    sc = new JavaSparkContext(conf);
  }

  @AfterAll
  static void stop() {
    if (sc != null) {
      sc.stop();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  private static Memory memoryAt(String path) {
    return Memory.builder(MiniDfs.uri(dfs, path).toString()).verbose(0)
        .storeOption(HadoopStoreOptions.LOCAL_CACHE_DIR, localCache.toString()).build();
  }

  @Test
  void executorsWriteTheHdfsCacheAndEveryJvmHitsIt() {
    MemoizedFn1<Integer, Long> square = memoryAt("/memory-" + UUID.randomUUID()).cache(Work::square);
    long driver = ProcessHandle.current().pid();
    List<String> first = sc.parallelize(IntStream.range(0, 20).boxed().toList(), 4)
        .map(x -> ProcessHandle.current().pid() + ":" + square.apply(x % 10)).collect();
    Set<Long> pids = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      String[] pidAndValue = first.get(i).split(":");
      pids.add(Long.parseLong(pidAndValue[0]));
      assertThat(Long.parseLong(pidAndValue[1])).isEqualTo((long) (i % 10) * (i % 10));
    }
    assertThat(pids).doesNotContain(driver);
    // every key is in the cache, and the driver loads what the executors stored
    Work.COMPUTED.set(0);
    for (int k = 0; k < 10; k++) {
      assertThat(square.checkCallInCache(k)).isTrue();
      assertThat(square.apply(k)).isEqualTo((long) k * k);
    }
    assertThat(Work.COMPUTED).hasValue(0);
    // and executors now hit: nothing is computed there either
    List<Integer> computedOnExecutors = sc.parallelize(IntStream.range(0, 10).boxed().toList(), 4)
        .map(x -> {
          int before = Work.COMPUTED.get();
          square.apply(x);
          return Work.COMPUTED.get() - before;
        }).collect();
    assertThat(computedOnExecutors).containsOnly(0);
  }

  @Test
  void aTaskRunTwiceConcurrentlyLeavesExactlyOneValidEntryAndReturnsTheSameValue() throws Exception {
    String path = "/twice-" + UUID.randomUUID();
    MemoizedFn1<Integer, String> greeting = memoryAt(path).cache(Work::slowGreeting);
    long startAt = System.currentTimeMillis() + 3_000;
    // the same task twice, as a retry or a speculative copy would run it: both compute and publish
    List<String> results = sc.parallelize(List.of(7, 7), 2).map(x -> {
      Thread.sleep(Math.max(0, startAt - System.currentTimeMillis()));
      return ProcessHandle.current().pid() + ":" + greeting.apply(x);
    }).collect();
    assertThat(results).hasSize(2);
    assertThat(results.get(0).substring(results.get(0).indexOf(':')))
        .isEqualTo(results.get(1).substring(results.get(1).indexOf(':')))
        .isEqualTo(":hello 7 from a task");

    try (Store store = HadoopStores.open(MiniDfs.uri(dfs, path), MiniDfs.clientConf(dfs),
        Map.of(HadoopStoreOptions.LOCAL_CACHE_DIR, localCache.toString()))) {
      List<StoreFile> all = store.list("");
      List<String> entries = all.stream().filter(f -> f.directory() && f.path().matches("[^/]+/[0-9a-f]{32}"))
          .map(StoreFile::path).toList();
      assertThat(entries).hasSize(1);
      assertThat(all.stream().map(StoreFile::path).filter(p -> p.startsWith(entries.get(0) + "/")))
          .containsExactlyInAnyOrder(entries.get(0) + "/output.jl4j", entries.get(0) + "/metadata.json");
    }
    FileSystem fs = dfs.getFileSystem();
    org.apache.hadoop.fs.Path temps = new org.apache.hadoop.fs.Path(path + "/.jl4j-tmp");
    assertThat(fs.exists(temps) ? fs.listStatus(temps) : new Object[0]).isEmpty(); // the loser cleaned up
    Work.COMPUTED.set(0);
    assertThat(greeting.apply(7)).isEqualTo("hello 7 from a task");
    assertThat(Work.COMPUTED).hasValue(0);
  }

  @Test
  void executorsFillAChunkedArrayThatTheDriverOpensAsOneMappedArray() throws Exception {
    ChunkedArray ab = ChunkedArray.create(MiniDfs.uri(dfs, "/arrays-" + UUID.randomUUID()).toString(),
        Map.of(HadoopStoreOptions.LOCAL_CACHE_DIR, localCache.toString()), "ab", DType.FLOAT64, 100, 1_000, 20, 2);
    List<Boolean> written = sc.parallelize(IntStream.range(0, ab.chunks()).boxed().toList(), ab.chunks())
        .map(i -> ab.writeChunk(i, ChunkedArrayTest.fill(ab, i))).collect();
    assertThat(written).hasSize(10).containsOnly(true);
    NDArray all = ab.toMapped(localCache.resolve("ab.f64"));
    for (int r = 0; r < 1_000; r += 37) {
      for (int c = 0; c < 20; c++) {
        assertThat(all.getDouble(r, c, 0)).isEqualTo(r + c);
        assertThat(all.getDouble(r, c, 1)).isEqualTo((double) r * c);
      }
    }
  }

  @Test
  void storesUseTheDriversHadoopConfigurationAndTheExecutorsSparkHadoopSettings() {
    sc.hadoopConfiguration().set("joblib4j.it.driver", "set on sc.hadoopConfiguration()");
    assertThat(io.joblib4j.hdfs.internal.Configurations.inScope().get("joblib4j.it.driver"))
        .isEqualTo("set on sc.hadoopConfiguration()");
    List<String> onExecutors = sc.parallelize(List.of(1, 2), 2)
        .map(x -> io.joblib4j.hdfs.internal.Configurations.inScope().get("joblib4j.it.setting")).collect();
    assertThat(onExecutors).containsOnly("from spark.hadoop.*");
  }
}
