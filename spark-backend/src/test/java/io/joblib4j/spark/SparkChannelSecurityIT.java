package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.spi.support.Warnings;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The driver channel under Spark's own security, with executors in two JVMs of their own
 * (local-cluster[2,1,1024] with {@code spark.authenticate} and {@code spark.network.crypto.enabled}):
 * the call's key reaches the executors inside Spark's encrypted RPC, the channel is sealed with it
 * without any setting of joblib4j's, and a tap on the wire sees only the handshake and sealed
 * records; when the executors cannot reach the driver, the calls run as Spark jobs, still on the
 * executors. Runs on a SparkContext of its own (the shared one is stopped first).
 */
@Timeout(300)
class SparkChannelSecurityIT {
  private static final long DRIVER_PID = ProcessHandle.current().pid();
  private static JavaSparkContext jsc;

  @BeforeAll
  static void start() {
    ClusterSpark.stopShared();
    byte[] secret = new byte[32];
    new java.security.SecureRandom().nextBytes(secret);
    jsc = new JavaSparkContext(ClusterSpark.conf("joblib4j-channel-security-it", 2, 1024)
        .set("spark.authenticate", "true")
        .set("spark.authenticate.secret", HexFormat.of().formatHex(secret))
        .set("spark.network.crypto.enabled", "true"));
    ClusterSpark.awaitExecutors(jsc.sc(), 2);
  }

  @AfterAll
  static void stop() {
    jsc.stop();
  }

  /** (pid, the argument echoed) */
  static String echo(String s) {
    return ProcessHandle.current().pid() + " " + s + "-RESULT";
  }

  private static List<String> run(SparkBackend backend, List<String> in) {
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).batchSize(2).build()) {
      return p.run(in.stream().map(s -> delayed(SparkChannelSecurityIT::echo, s)));
    }
  }

  private static void assertRanOnExecutors(List<String> out, List<String> in) {
    assertThat(out.stream().map(s -> s.substring(s.indexOf(' ') + 1)).collect(Collectors.toList()))
        .isEqualTo(in.stream().map(s -> s + "-RESULT").collect(Collectors.toList()));
    Set<Long> pids = out.stream().map(s -> Long.parseLong(s.substring(0, s.indexOf(' ')))).collect(Collectors.toSet());
    assertThat(pids).as("executor JVMs, not the driver's").doesNotContain(DRIVER_PID).isNotEmpty();
  }

  @Test
  void withSparksNetworkEncryptionTheChannelIsSealedEndToEnd() throws Exception {
    List<String> in = IntStream.range(0, 30).mapToObj(i -> "PLAINTEXT-MARKER-" + i).collect(Collectors.toList());
    WireTap tap = new WireTap();
    Map<String, Object> options = new HashMap<>(tap.options());
    options.put("channel", "driver");
    try (tap; SparkBackend backend = new SparkBackend(jsc.sc(), options)) {
      assertRanOnExecutors(run(backend, in), in);
    }
    // every worker that joined came through the tap; how many join is up to Spark's scheduling (in
    // one CI run only one did, and it served all 15 batches)
    assertThat(tap.connections()).as("the workers connected through the tap").isGreaterThanOrEqualTo(1);
    for (byte[] connection : tap.sentToDriverByConnection()) {
      assertThat(connection[5]).as("each connection's opening says: sealed (joblib4j followed Spark's setting)")
          .isEqualTo((byte) 1);
    }
    assertThat(tap.sawText("PLAINTEXT-MARKER-")).as("no argument or result in the clear").isFalse();
    assertThat(tap.sawText("executor ")).as("nor the workers' HELLO").isFalse();
  }

  @Test
  void whenExecutorsCannotReachTheDriverTheCallsRunAsSparkJobsOnTheExecutors() {
    List<String> warnings = new CopyOnWriteArrayList<>();
    Runnable remove = Warnings.addHook((source, message) -> warnings.add(message));
    List<String> in = IntStream.range(0, 40).mapToObj(i -> "x" + i).collect(Collectors.toList());
    Map<String, Object> unreachable = Map.of("driver.host", "192.0.2.1", "driver.bindAddress", "127.0.0.1",
        "driver.connectTimeout", "3s");
    try (SparkBackend backend = new SparkBackend(jsc.sc(), unreachable)) {
      long t0 = System.nanoTime();
      assertRanOnExecutors(run(backend, in), in);
      long first = (System.nanoTime() - t0) / 1_000_000;
      assertRanOnExecutors(run(backend, in), in);
      System.out.println("RELIABILITY local-cluster, unreachable driver, auto: first call " + first + " ms");
    } finally {
      remove.run();
    }
    assertThat(warnings).filteredOn(w -> w.contains("run their batches as Spark jobs")).hasSize(1);
  }
}
