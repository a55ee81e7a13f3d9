package io.joblib4j.hdfs.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.joblib4j.CorruptFileException;
import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.testing.Captured;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store on a MiniDFSCluster of three DataNodes that loses a DataNode during a write, a writer
 * that dies holding its lease, corrupt blocks, and finally its NameNode, in the middle of a write.
 */
@Timeout(180)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HdfsFaultsTest {
  private static final AtomicInteger COMPUTED = new AtomicInteger();
  private static MiniDFSCluster cluster;
  @TempDir Path localCache;

  @BeforeAll
  static void startCluster() {
    Configuration conf = new Configuration();
    conf.setInt("dfs.replication", 3);
    cluster = MiniDfs.start(3, conf);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  public static double[] series(int n) {
    COMPUTED.incrementAndGet();
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = Math.sin(i) * n;
    }
    return out;
  }

  private Store newStore(String name, Map<String, Object> options) throws Exception {
    Map<String, Object> all = new java.util.HashMap<>(options);
    all.put("localCacheDir", localCache.toString());
    return HadoopStoreOpener.open(MiniDfs.uri(cluster, "/" + name + "-" + UUID.randomUUID()), MiniDfs.clientConf(cluster), all);
  }

  @Test
  @Order(1)
  void anEntryWrittenWhileADataNodeDiesReadsBackExactly() throws Exception {
    byte[] data = new byte[6 << 20];
    new Random(42).nextBytes(data);
    try (Store store = newStore("datanode-lost", Map.of())) {
      MiniDFSCluster.DataNodeProperties[] stopped = new MiniDFSCluster.DataNodeProperties[1];
      Store.Publication p = store.publish("f/k", List.of(new EntryFile("output", out -> {
        out.write(data, 0, data.length / 2);
        out.flush();
        stopped[0] = cluster.stopDataNode(0); // the pipeline loses a member mid-block
        out.write(data, data.length / 2, data.length - data.length / 2);
      })));
      assertThat(p).isEqualTo(Store.Publication.PUBLISHED);
      assertThat(stopped[0]).isNotNull();
      try (InputStream in = store.open("f/k/output").orElseThrow()) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
      cluster.restartDataNode(stopped[0], true);
      cluster.waitActive();
    }
  }

  @Test
  @Order(2)
  void aWriterThatDiesHoldingItsLeaseLeavesTheKeyUsableAndSweepRecoversTheLease() throws Exception {
    try (Store store = newStore("dead-writer", Map.of())) {
      HadoopStore s = (HadoopStore) store;
      // a writer on another client starts the entry, writes half of it, and dies without closing
      DistributedFileSystem doomed = (DistributedFileSystem) FileSystem.newInstance(s.root.toUri(), MiniDfs.clientConf(cluster));
      org.apache.hadoop.fs.Path temp = new org.apache.hadoop.fs.Path(s.tempArea, ".jl4j-w-" + UUID.randomUUID());
      org.apache.hadoop.fs.Path half = new org.apache.hadoop.fs.Path(temp, "output.jl4j");
      FSDataOutputStream out = doomed.create(half, false);
      out.write(new byte[200_000]);
      out.hflush();
      doomed.getClient().closeAllFilesBeingWritten(true); // dies: aborted, the NameNode still holds its lease
      assertThat(s.fs instanceof DistributedFileSystem dfs && !dfs.isFileClosed(half)).isTrue();

      Memory memory = Memory.builder(store).verbose(0).build();
      MemoizedFn1<Integer, double[]> f = memory.cache(HdfsFaultsTest::series);
      COMPUTED.set(0);
      List<String> warnings = Captured.warnings(() -> {
        assertThat(f.apply(1000)).isEqualTo(series(1000));
        assertThat(f.apply(1000)).isEqualTo(series(1000));
      });
      assertThat(warnings).isEmpty();
      assertThat(COMPUTED).hasValue(3); // computed once through the cache (and twice here to compare)

      long t0 = System.nanoTime();
      assertThat(store.sweep(Duration.ZERO)).isEqualTo(1);
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(60));
      assertThat(s.fs.exists(temp)).isFalse();
      assertThat(f.apply(1000)).isEqualTo(series(1000));
      assertThat(COMPUTED).hasValue(4); // still a hit: the sweep removed only the dead writer's temporary
    }
  }

  @Test
  @Order(3)
  void oneCorruptReplicaIsReadAroundExactly() throws Exception {
    byte[] data = "exactly these bytes ".repeat(10_000).getBytes(UTF_8);
    try (Store store = newStore("one-corrupt", Map.of())) {
      store.publish("f/k", List.of(EntryFile.of("output", data)));
      HadoopStore s = (HadoopStore) store;
      ExtendedBlock block = DFSTestUtil.getFirstBlock(s.fs, new org.apache.hadoop.fs.Path(s.root, "f/k/output"));
      cluster.corruptReplica(0, block);
      try (InputStream in = store.open("f/k/output").orElseThrow()) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
    }
  }

  @Test
  @Order(4)
  void anEntryCorruptOnEveryReplicaIsDetectedDeletedAndRecomputed() throws Exception {
    try (Store store = newStore("all-corrupt", Map.of("hadoop.dfs.replication", "1"))) {
      MemoizedFn1<Integer, double[]> f = Memory.builder(store).verbose(0).build().cache(HdfsFaultsTest::series);
      storeThenCorruptEveryReplica(store, f, 50_000, 1);
      assertRecomputedOnceThenAHit(f, 50_000);
    }
  }

  /** Stores {@code f(n)}, then corrupts every replica of its output's first block; returns the output's path. */
  private static String storeThenCorruptEveryReplica(Store store, MemoizedFn1<Integer, double[]> f, int n, int replicas)
      throws Exception {
    COMPUTED.set(0);
    f.apply(n);
    String output = store.list("").stream().map(StoreFile::path).filter(p -> p.endsWith("/output.jl4j"))
        .findFirst().orElseThrow();
    HadoopStore s = (HadoopStore) store;
    ExtendedBlock block = DFSTestUtil.getFirstBlock(s.fs, new org.apache.hadoop.fs.Path(s.root, output));
    assertThat(cluster.corruptBlockOnDataNodes(block)).isEqualTo(replicas);
    return output;
  }

  /** The damaged entry of {@code f(n)} is detected as corrupt (not as an outage), deleted, recomputed and replaced. */
  private static void assertRecomputedOnceThenAHit(MemoizedFn1<Integer, double[]> f, int n) {
    List<String> warnings = Captured.warnings(() -> assertThat(f.apply(n)).isEqualTo(series(n)));
    assertThat(warnings).anyMatch(w -> w.contains("Exception while loading results") && w.contains("corrupt"))
        .noneMatch(w -> w.contains("cannot be used"));
    assertThat(COMPUTED).hasValue(3); // recomputed once (plus the comparison)
    assertThat(f.apply(n)).isEqualTo(series(n));
    assertThat(COMPUTED).hasValue(4); // the repaired entry is a hit again
  }

  @Test
  @Order(5)
  void anEntryCorruptOnEveryOneOfSeveralReplicasIsDetectedDeletedAndRecomputed() throws Exception {
    // three replicas, all corrupt: the client reports none of them (it cannot tell whether it is to
    // blame), so the NameNode does not list the file as corrupt, and the read ends in a missing block
    try (Store store = newStore("all-replicas-corrupt", Map.of("hadoop.dfs.client.retry.window.base", "100"))) {
      MemoizedFn1<Integer, double[]> f = Memory.builder(store).verbose(0).build().cache(HdfsFaultsTest::series);
      String output = storeThenCorruptEveryReplica(store, f, 40_000, 3);
      HadoopStore s = (HadoopStore) store;
      // a positional read ends in a missing block every time (a streaming read only sometimes)
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(s.root, output);
      try (FSDataInputStream raw = s.fs.open(file)) {
        InputStream positional = new InputStream() {
          private long pos;

          @Override
          public int read() {
            throw new UnsupportedOperationException();
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            int n = raw.read(pos, b, off, len);
            pos += Math.max(n, 0);
            return n;
          }
        };
        assertThatThrownBy(() -> new ReadFailures(positional, s.fs, file, output).readAllBytes())
            .isInstanceOf(CorruptFileException.class).hasCauseInstanceOf(BlockMissingException.class);
      }
      assertRecomputedOnceThenAHit(f, 40_000);
    }
  }

  @Test
  @Order(6)
  void aBlockWhoseDataNodeIsDownIsAnIoErrorNotCorruptionAndTheEntryStays() throws Exception {
    try (Store store = newStore("datanode-down", Map.of("hadoop.dfs.replication", "1",
        "hadoop.dfs.client.retry.window.base", "100"))) {
      store.publish("f/k", List.of(EntryFile.of("output", new byte[300_000])));
      HadoopStore s = (HadoopStore) store;
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(s.root, "f/k/output");
      String holder = s.fs.getFileBlockLocations(file, 0, 1)[0].getNames()[0];
      MiniDFSCluster.DataNodeProperties stopped = cluster.stopDataNode(holder);
      try {
        // the NameNode still lists the stopped DataNode (it is declared dead only later): a missing block
        assertThatThrownBy(() -> store.open("f/k/output").orElseThrow().readAllBytes())
            .isInstanceOf(IOException.class).isNotInstanceOf(CorruptFileException.class);
        assertThat(store.exists("f/k/output")).isTrue();
      } finally {
        cluster.restartDataNode(stopped, true);
        cluster.waitActive();
      }
      try (InputStream in = store.open("f/k/output").orElseThrow()) {
        assertThat(in.readAllBytes()).hasSize(300_000);
      }
    }
  }

  @Test
  @Order(7)
  void withTheNameNodeGoingDownCallsStillComputeAndReturnWithAWarningWithinSeconds() throws Exception {
    Store store = newStore("namenode-down", Map.of());
    HadoopStore s = (HadoopStore) store;
    URI elsewhere = MiniDfs.uri(cluster, "/never-opened-" + UUID.randomUUID());
    Memory memory = Memory.builder(store).verbose(0).build();
    MemoizedFn1<Integer, double[]> f = memory.cache(HdfsFaultsTest::series);
    f.apply(10); // the store works and is prepared

    // the NameNode goes away while an entry is being written: its hsync (or the block allocation
    // before it) fails, and the store reports why, as an I/O error that starts the outage backoff
    IOException failed = catchThrowableOfType(() -> store.publish("f/during-outage", List.of(new EntryFile("output", out -> {
      out.write(new byte[1 << 20]);
      out.flush();
      awaitBlockAllocated(s);
      cluster.shutdownNameNode(0);
      out.write(1);
    }))), IOException.class);
    assertThat(failed).isNotNull();
    assertThat(Outage.unreachable(failed)).as("%s", failed).isTrue();
    assertThat(catchThrowableOfType(() -> store.exists("f"), IOException.class)).hasMessageContaining("could not be reached");

    long t0 = System.nanoTime();
    List<String> warnings = Captured.warnings(() -> {
      assertThat(f.apply(10)).isEqualTo(series(10));   // a hit that cannot be read
      assertThat(f.apply(11)).isEqualTo(series(11));   // a miss that cannot be stored
      assertThat(f.apply(12)).isEqualTo(series(12));
      assertThat(new Memory(elsewhere.toString()).cache(HdfsFaultsTest::series).apply(13)).isEqualTo(series(13));
    });
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    assertThat(took).isLessThan(Duration.ofSeconds(30));
    // once a minute per location: one for this store, one for the location never opened
    assertThat(warnings).hasSize(2).allMatch(w -> w.contains("cannot be used") && w.contains("could not be reached"));
    store.close();
  }

  /** Waits until the file being written under the store's temporary area has its first block. */
  private static void awaitBlockAllocated(HadoopStore s) throws IOException {
    DistributedFileSystem dfs = (DistributedFileSystem) s.fs;
    for (int i = 0; i < 1_000; i++) {
      var files = dfs.listFiles(s.tempArea, true);
      while (files.hasNext()) {
        String src = files.next().getPath().toUri().getPath();
        if (dfs.getClient().getLocatedBlocks(src, 0).locatedBlockCount() > 0) {
          return;
        }
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException();
      }
    }
    throw new AssertionError("no block was allocated for the entry being written");
  }
}
