package io.joblib4j.spark.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.array.DType;
import io.joblib4j.hdfs.ChunkedArray;
import io.joblib4j.hdfs.MiniDfs;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;

/**
 * A Hadoop store opened in this Connect client, which has no SparkContext to take the cluster's
 * Hadoop settings from: with settings of its own it works; without, it fails at once, naming the
 * feature, Spark Connect, and the fixes (before, it used Hadoop's defaults without a word).
 */
class HadoopStoresOnConnectIT {
  /** A NameNode address nobody listens at: nothing may be tried before the refusal. */
  static final String NOWHERE = "hdfs://127.0.0.1:1";
  static final AtomicInteger COMPUTED = new AtomicInteger();

  static int square(int x) {
    COMPUTED.incrementAndGet();
    return x * x;
  }

  @Test
  void aMemoryOnHdfsWithoutHadoopSettingsIsRefusedNamingSparkConnectAndTheFixes() {
    ConnectServer.session();
    Throwable t = catchThrowable(() -> new Memory(NOWHERE + "/cache").entries());
    assertRefused(t, "Memory at " + NOWHERE + "/cache");
  }

  @Test
  void aChunkedArrayWithoutHadoopSettingsIsRefusedNamingSparkConnectAndTheFixes() {
    ConnectServer.session();
    Throwable t = catchThrowable(() -> ChunkedArray.create(NOWHERE + "/arrays", "scores", DType.FLOAT64, 10, 100));
    assertRefused(t, "ChunkedArray at " + NOWHERE + "/arrays");
  }

  @Test
  void withHadoopSettingsOfTheirOwnAMemoryAndAChunkedArrayOnHdfsWork() {
    ConnectServer.session();
    MiniDFSCluster dfs = MiniDfs.shared();
    String root = "hdfs://127.0.0.1:" + dfs.getNameNodePort();
    Map<String, Object> settings = Map.of("hadoop.dfs.replication", "1");
    Memory memory = Memory.builder(root + "/cache").storeOption("hadoop.dfs.replication", "1").build();
    MemoizedFn1<Integer, Integer> square = memory.cache(HadoopStoresOnConnectIT::square);
    int before = COMPUTED.get();
    assertThat(square.apply(7)).isEqualTo(49);
    assertThat(square.apply(7)).isEqualTo(49);
    assertThat(COMPUTED.get() - before).as("the second call read the entry from HDFS").isEqualTo(1);
    ChunkedArray a = ChunkedArray.create(root + "/arrays", settings, "scores", DType.FLOAT64, 10, 20);
    assertThat(ChunkedArray.open(root + "/arrays", settings, "scores").chunks()).isEqualTo(a.chunks()).isEqualTo(2);
  }

  private static void assertRefused(Throwable t, String feature) {
    Throwable cause = t;
    while (cause != null && !(cause instanceof UnsupportedOperationException)) {
      cause = cause.getCause();
    }
    assertThat(cause).as("refused, with the reason: " + t).isNotNull();
    assertThat(cause.getMessage()).startsWith(feature)
        .contains("Spark Connect client", "no SparkContext", "hadoop.", "core-site.xml", "single-user cluster",
            "spark.api.mode=classic", "backend(\"threads\")");
  }
}
