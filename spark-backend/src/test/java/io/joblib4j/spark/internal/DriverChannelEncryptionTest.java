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

  static byte[] reversed(byte[] b) {
    byte[] r = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      r[i] = b[b.length - 1 - i];
    }
    return r;
  }

  @Test
  void framesOfMegabytesCrossASealedChannelIntact() throws Exception {
    java.util.Random random = new java.util.Random(7);
    List<byte[]> in = IntStream.of(1, 70_000, 3 << 20).mapToObj(n -> {
      byte[] b = new byte[n];
      random.nextBytes(b);
      return b;
    }).collect(Collectors.toList());
    WireTap tap = new WireTap();
    Map<String, Object> options = new HashMap<>(tap.options());
    options.put("driver.encryption", "always");
    List<byte[]> out;
    try (tap; SparkBackend backend = new SparkBackend(sc, options);
        Parallel p = Parallel.builder().backend(backend).nJobs(2).batchSize(1).maxNbytes("none").build()) {
      out = p.run(in.stream().map(b -> delayed(DriverChannelEncryptionTest::reversed, b)));
    }
    for (int i = 0; i < in.size(); i++) {
      assertThat(out.get(i)).isEqualTo(reversed(in.get(i)));
    }
    assertThat(tap.sentToExecutors().length).as("the arguments travelled sealed, in the batches").isGreaterThan(3 << 20);
  }

  @Test
  void onAPlainChannelTheTapSeesTheFrames() throws Exception {
    WireTap tap = runTapped(Map.of("channel", "driver"));
    assertThat(tap.sawText(MARKER + "7")).as("an argument, in a batch").isTrue();
    assertThat(tap.sawText(MARKER + "7-RESULT")).as("a result, in an outcome").isTrue();
    for (byte[] sent : tap.sentToDriverByConnection()) {
      assertThat(ByteBuffer.wrap(sent).getInt()).isEqualTo(ChannelHandshake.MAGIC);
    }
  }

  @Test
  void onASealedChannelNothingButTheHandshakeIsReadable() throws Exception {
    WireTap tap = runTapped(Map.of("channel", "driver", "driver.encryption", "always"));
    for (byte[] sent : tap.sentToDriverByConnection()) {
      assertThat(ByteBuffer.wrap(sent).getInt()).isEqualTo(ChannelHandshake.MAGIC);
      assertThat(sent[5]).as("each connection's opening says: sealed").isEqualTo((byte) 1);
    }
    assertThat(tap.sawText(MARKER)).as("no argument or result in the clear").isFalse();
    assertThat(tap.sawText("executor driver")).as("nor the worker's HELLO").isFalse();
    assertThat(tap.sentToExecutors().length).as("batches did travel").isGreaterThan(40 * MARKER.length());
  }
}
