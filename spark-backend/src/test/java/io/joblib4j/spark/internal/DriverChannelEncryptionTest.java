package io.joblib4j.spark.internal;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.spark.LocalSpark;
import io.joblib4j.spark.SparkBackend;
import io.joblib4j.spark.WireTap;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What crosses the wire between executors and the driver, seen by a tap on loopback ({@link
 * WireTap}): on a plain channel, the frames themselves (the tap is shown to see them); on a sealed
 * one, the handshake and then only AES-GCM records — neither the arguments, the results, nor the
 * worker's HELLO are readable. Sealing is asked for here with {@code driver.encryption=always};
 * {@code SparkChannelSecurityIT} turns it on the way users do, with Spark's own encryption.
 */
@Timeout(180)
class DriverChannelEncryptionTest {
  static final String MARKER = "PLAINTEXT-MARKER-";
  private static SparkContext sc;

  @BeforeAll
  static void start() {
    sc = LocalSpark.session().sparkContext();
  }

  static String echo(String s) {
    return s + "-RESULT";
  }

  /** Runs a call through a fresh tap; returns the tap, closed. */
  private static WireTap runTapped(Map<String, Object> extra) throws Exception {
    WireTap tap = new WireTap();
    Map<String, Object> options = new HashMap<>(tap.options());
    options.putAll(extra);
    List<String> in = IntStream.range(0, 40).mapToObj(i -> MARKER + i).collect(Collectors.toList());
    try (tap; SparkBackend backend = new SparkBackend(sc, options);
        Parallel p = Parallel.builder().backend(backend).nJobs(2).batchSize(4).build()) {
      assertThat(p.run(in.stream().map(s -> delayed(DriverChannelEncryptionTest::echo, s))))
          .isEqualTo(in.stream().map(DriverChannelEncryptionTest::echo).collect(Collectors.toList()));
    }
    assertThat(tap.connections()).as("the workers connected through the tap").isPositive();
    return tap;
  }

  @Test
  void onAPlainChannelTheTapSeesTheFrames() throws Exception {
    WireTap tap = runTapped(Map.of("channel", "driver"));
    assertThat(tap.sawText(MARKER + "7")).as("an argument, in a batch").isTrue();
    assertThat(tap.sawText(MARKER + "7-RESULT")).as("a result, in an outcome").isTrue();
    assertThat(ByteBuffer.wrap(tap.sentToDriver()).getInt()).isEqualTo(ChannelHandshake.MAGIC);
  }

  @Test
  void onASealedChannelNothingButTheHandshakeIsReadable() throws Exception {
    WireTap tap = runTapped(Map.of("channel", "driver", "driver.encryption", "always"));
    byte[] sent = tap.sentToDriver();
    assertThat(ByteBuffer.wrap(sent).getInt()).isEqualTo(ChannelHandshake.MAGIC);
    assertThat(sent[5]).as("the opening says: sealed").isEqualTo((byte) 1);
    assertThat(tap.sawText(MARKER)).as("no argument or result in the clear").isFalse();
    assertThat(tap.sawText("executor driver")).as("nor the worker's HELLO").isFalse();
    assertThat(tap.sentToExecutors().length).as("batches did travel").isGreaterThan(40 * MARKER.length());
  }
}
