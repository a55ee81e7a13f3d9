package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.testing.Captured;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Memory-mapped NDArray entries on HDFS, through this machine's verified local copies. */
class HdfsMmapTest {
  private static final AtomicInteger COMPUTED = new AtomicInteger();
  @TempDir Path localCache;

  public static NDArray ramp(int n) {
    COMPUTED.incrementAndGet();
    NDArray a = NDArray.zeros(DType.FLOAT64, n, 4);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < 4; j++) {
        a.setDouble(i * 4.0 + j, i, j);
      }
    }
    return a;
  }

  private Store newStore() throws Exception {
    return HadoopStoreOpener.open(MiniDfs.uri(MiniDfs.shared(), "/mmap-" + UUID.randomUUID()),
        MiniDfs.clientConf(MiniDfs.shared()), Map.of("localCacheDir", localCache.toString()));
  }

  @Test
  void mappedResultsComeFromOneLocalCopyPerMachine() throws Exception {
    try (Store store = newStore()) {
      MemoizedFn1<Integer, NDArray> f = mapped(store);
      NDArray first = f.apply(10_000);
      NDArray second = f.apply(10_000);
      // a second Memory (as another JVM on this machine would) maps the same copy
      NDArray third = Memory.builder(store).verbose(0).mmapMode(MmapMode.READ_ONLY).build().cache(HdfsMmapTest::ramp)
          .apply(10_000);
      assertThat(COMPUTED).hasValue(1);
      for (NDArray a : List.of(first, second, third)) {
        assertThat(a.isMapped()).isTrue();
        assertThat(a.mapping().orElseThrow().path().startsWith(localCache)).isTrue();
        assertThat(a.getDouble(9_999, 3)).isEqualTo(9_999 * 4.0 + 3);
      }
      assertThat(second.mapping().orElseThrow().path()).isEqualTo(first.mapping().orElseThrow().path());
      try (var files = Files.list(localCache)) {
        assertThat(files.filter(p -> !p.getFileName().toString().endsWith(".lock"))).hasSize(1);
      }
    }
  }

  @Test
  void aLocalCopyDamagedOnThisDiskIsDetectedAndTheResultRecomputed() throws Exception {
    try (Store store = newStore()) {
      MemoizedFn1<Integer, NDArray> f = mapped(store);
      Path copy = f.apply(5_000).mapping().orElseThrow().path();
      try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), Files.size(copy) - 100);
      }
      List<String> warnings = Captured.warnings(() -> assertThat(f.apply(5_000).getDouble(4_999, 3)).isEqualTo(4_999 * 4.0 + 3));
      assertThat(warnings).anyMatch(w -> w.contains("Exception while loading results"));
      assertThat(COMPUTED).hasValue(2);
    }
  }

  @Test
  void aCopyOnThisMachineIsNotServedOnceTheNameNodeKnowsTheEntryIsCorrupt() throws Exception {
    try (Store store = newStore()) {
      MemoizedFn1<Integer, NDArray> f = mapped(store);
      f.apply(3_000); // this machine now has a verified copy
      HadoopStore s = (HadoopStore) store;
      org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(s.root, onlyOutput(store));
      ExtendedBlock block = DFSTestUtil.getFirstBlock(s.fs, output);
      assertThat(MiniDfs.shared().corruptBlockOnDataNodes(block)).isEqualTo(1);
      // another reader (a job, fsck, the DataNode's block scanner) finds it and tells the NameNode
      assertThatThrownBy(() -> {
        try (InputStream in = s.fs.open(output)) {
          in.readAllBytes();
        }
      }).isInstanceOf(ChecksumException.class);
      assertThat(((DistributedFileSystem) s.fs).listCorruptFileBlocks(output).hasNext()).isTrue();

      List<String> warnings = Captured.warnings(() -> assertThat(f.apply(3_000).getDouble(2_999, 3)).isEqualTo(2_999 * 4.0 + 3));
      assertThat(warnings).anyMatch(w -> w.contains("Exception while loading results") && w.contains("corrupt"));
      assertThat(COMPUTED).hasValue(2); // recomputed and stored again, not served from the old copy
      assertThat(f.apply(3_000).getDouble(2_999, 3)).isEqualTo(2_999 * 4.0 + 3);
      assertThat(COMPUTED).hasValue(2);
    }
  }

  @Test
  void aFileRewrittenOnHdfsBehindTheStoresBackIsCheckedAgainNotServedFromTheOldCopy() throws Exception {
    try (Store store = newStore()) {
      MemoizedFn1<Integer, NDArray> f = mapped(store);
      f.apply(2_000);
      HadoopStore s = (HadoopStore) store;
      org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(s.root, onlyOutput(store));
      byte[] bytes;
      try (InputStream in = s.fs.open(output)) {
        bytes = in.readAllBytes();
      }
      bytes[bytes.length - 100] ^= 0x5a; // same size, one byte changed: an "hdfs dfs -put -f" of other content
      try (FSDataOutputStream out = s.fs.create(output, true)) {
        out.write(bytes);
      }
      List<String> warnings = Captured.warnings(() -> assertThat(f.apply(2_000).getDouble(1_999, 3)).isEqualTo(1_999 * 4.0 + 3));
      assertThat(warnings).anyMatch(w -> w.contains("Exception while loading results"));
      assertThat(COMPUTED).hasValue(2);
    }
  }

  /** {@code ramp} memoized in {@code store}, results mapped, with the computation count reset. */
  private static MemoizedFn1<Integer, NDArray> mapped(Store store) {
    COMPUTED.set(0);
    return Memory.builder(store).verbose(0).mmapMode(MmapMode.READ_ONLY).build().cache(HdfsMmapTest::ramp);
  }

  private static String onlyOutput(Store store) throws java.io.IOException {
    return store.list("").stream().map(StoreFile::path).filter(p -> p.endsWith("/output.jl4j")).findFirst().orElseThrow();
  }
}
