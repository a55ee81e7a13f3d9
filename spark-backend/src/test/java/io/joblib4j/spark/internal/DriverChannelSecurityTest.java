package io.joblib4j.spark.internal;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import io.joblib4j.spark.LocalSpark;
import io.joblib4j.spark.SparkBackend;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The driver's channel against a stranger who knows a live call's id (it is in the Spark UI) and
 * the port, but not the call's secret: it is refused, and nothing it sends is deserialized or
 * sizes an allocation — on a plain channel (token) and a sealed one (key). Each refusal is checked
 * against a control that presents the real secret and does get its object deserialized, so the
 * probe is known to be one the driver would read. On local[2]: the channel is a real TCP port.
 */
@Timeout(120)
class DriverChannelSecurityTest {
  private static SparkContext sc;
  private static final BlockingQueue<String> CALL_IDS = new LinkedBlockingQueue<>();
  private static final SparkListener CALLS = new SparkListener() {
    @Override
    public void onJobStart(SparkListenerJobStart start) {
      String description = start.properties().getProperty("spark.job.description", "");
      if (description.startsWith("joblib4j Parallel: ")) {
        CALL_IDS.add(start.properties().getProperty("spark.jobGroup.id"));
      }
    }
  };

  /** Strangers per test: each a connection of its own, with a fresh guess. */
  static final int ATTEMPTS = 50;
  /** Garbage openings and bodies in {@link #garbageAfterTheHandshakeIsDroppedAndNothingIsDeserialized}. */
  static final int GARBAGE = 200;

  /** local mode runs tasks in this JVM: the first task of a call waits here until the test lets it go. */
  static volatile CountDownLatch release = new CountDownLatch(0);

  /** Counts its own deserializations: the probe a stranger sends as a batch's results. */
  static final class Tripwire implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    static final AtomicInteger READS = new AtomicInteger();

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      READS.incrementAndGet();
    }
  }

  @BeforeAll
  static void start() {
    sc = LocalSpark.session().sparkContext();
    sc.addSparkListener(CALLS);
  }

  @AfterAll
  static void stop() {
    sc.removeSparkListener(CALLS);
  }

  static int waitThenReturn(int i) throws InterruptedException {
    if (i == 0) {
      release.await();
    }
    return i;
  }

  /** A call whose one worker holds batch 0 until {@link #release}, with batch 1 queued. */
  private record LiveCall(Parallel parallel, ResultIterator<Integer> results, String callId, DriverChannel channel) {}

  private LiveCall startBlockedCall(SparkBackend backend, Map<String, Object> options) throws InterruptedException {
    release = new CountDownLatch(1);
    CALL_IDS.clear();
    Parallel p = Parallel.builder().backend(backend).nJobs(1).batchSize(1).build();
    ResultIterator<Integer> it = p.iterate(List.of(0, 1).stream().map(i -> delayed(DriverChannelSecurityTest::waitThenReturn, i)));
    String callId = CALL_IDS.poll(60, TimeUnit.SECONDS);
    assertThat(callId).as("the call's worker job started").isNotNull();
    DriverChannel channel = DriverChannel.forContext(sc, SparkJoblibConf.from(sc.getConf(), options));
    assertThat(channel.call(callId)).as("registered before its job was submitted").isNotNull();
    return new LiveCall(p, it, callId, channel);
  }

  private static List<Integer> finish(LiveCall call) {
    release.countDown();
    List<Integer> out = new ArrayList<>();
    try (Parallel p = call.parallel(); ResultIterator<Integer> it = call.results()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  // ---- frames as a worker writes them (the layout of spi.worker's Frames) -----------------------

  private static void hello(DataOutputStream out, byte[] token, String callId) throws IOException {
    byte[] scope = callId.getBytes(StandardCharsets.UTF_8);
    byte[] name = "mallory".getBytes(StandardCharsets.UTF_8);
    out.writeInt(1 + 4 + 4 + token.length + 4 + scope.length + 4 + name.length + 16);
    out.writeByte(10); // HELLO
    out.writeInt(io.joblib4j.spi.worker.Hello.VERSION); // protocol version
    out.writeInt(token.length);
    out.write(token);
    out.writeInt(scope.length);
    out.write(scope);
    out.writeInt(name.length);
    out.write(name);
    out.writeLong(4711);
    out.writeLong(1 << 30);
  }

  private static void outcome(DataOutputStream out, long seq, byte[] results) throws IOException {
    out.writeInt(1 + 8 + 4 + results.length);
    out.writeByte(13); // OUTCOME
    out.writeLong(seq);
    out.writeInt(results.length);
    out.write(results);
  }

  private static byte[] tripwire() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
      o.writeObject(new Tripwire());
    }
    return bytes.toByteArray();
  }

  /**
   * Plays a worker of {@code callId}: the handshake, then a HELLO with {@code token} and an OUTCOME
   * for batch 0 holding the tripwire — sealed with {@code key} if not null. Returns the first byte
   * the driver sends after the handshake (-1: it closed the connection).
   */
  private static int impersonate(DriverChannel channel, String callId, byte[] token, byte[] key) throws IOException {
    try (Socket s = new Socket("127.0.0.1", channel.port())) {
      s.setSoTimeout(60_000);
      byte[] nonce = ChannelCrypto.random(ChannelCrypto.NONCE_BYTES);
      ChannelHandshake.open(s.getOutputStream(), key != null, callId, nonce);
      byte[] driverNonce = ChannelHandshake.readAnswer(new DataInputStream(s.getInputStream()));
      assertThat(driverNonce).as("the call is live: the driver answers GO").isNotNull();
      OutputStream raw = s.getOutputStream();
      java.io.InputStream in = s.getInputStream();
      if (key != null) {
        ChannelCrypto crypto = ChannelCrypto.forConnection(key, callId, nonce, driverNonce);
        raw = crypto.workerOutput(raw);
        in = crypto.workerInput(in);
      }
      // buffered: the HELLO and the OUTCOME leave in one write, so all of it reaches the driver before
      // a refusal closes the connection (unbuffered, a write after the refusal failed: Broken pipe)
      DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(raw, 1 << 16));
      hello(out, token, callId);
      outcome(out, 0, tripwire());
      out.flush();
      return in.read(); // an admitted worker is sent the queued batch 1; a refused one sees the end
    }
  }

  @Test
  void aStrangerWithTheWrongTokenIsRefusedAndNothingItSendsIsDeserialized() throws Exception {
    try (SparkBackend backend = new SparkBackend(sc)) {
      LiveCall call = startBlockedCall(backend, Map.of());
      Tripwire.READS.set(0);
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        int first = impersonate(call.channel(), call.callId(), ChannelCrypto.random(32), null);
        assertThat(first).as("the driver closed the connection and sent no batch").isEqualTo(-1);
      }
      assertThat(Tripwire.READS.get()).as("nothing the strangers sent was deserialized").isZero();
      assertThat(finish(call)).as("the call was not disturbed").containsExactly(0, 1);
    }
  }

  @Test
  void controlTheRealTokenIsAdmittedAndItsResultsAreDeserialized() throws Exception {
    try (SparkBackend backend = new SparkBackend(sc)) {
      LiveCall call = startBlockedCall(backend, Map.of());
      Tripwire.READS.set(0);
      byte[] token = call.channel().call(call.callId()).token();
      assertThat(impersonate(call.channel(), call.callId(), token, null)).as("admitted: sent the queued batch")
          .isGreaterThanOrEqualTo(0);
      waitFor(() -> Tripwire.READS.get() > 0);
      assertThat(Tripwire.READS.get()).as("so the probe is one the driver reads once admitted").isPositive();
      assertThat(catchThrowable(() -> finish(call))).isNotNull();
    }
  }

  @Test
  void aStrangerWithoutTheKeyOfASealedChannelIsRefusedAtItsFirstRecord() throws Exception {
    Map<String, Object> sealed = Map.of("driver.encryption", "always");
    try (SparkBackend backend = new SparkBackend(sc, sealed)) {
      LiveCall call = startBlockedCall(backend, sealed);
      Tripwire.READS.set(0);
      byte[] token = call.channel().call(call.callId()).token(); // even knowing the token
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        int first = impersonate(call.channel(), call.callId(), token, ChannelCrypto.random(ChannelCrypto.KEY_BYTES));
        assertThat(first).as("the first record failed its tag: closed").isEqualTo(-1);
      }
      assertThat(Tripwire.READS.get()).isZero();
      // nor may it skip the seal
      try (Socket s = new Socket("127.0.0.1", call.channel().port())) {
        ChannelHandshake.open(s.getOutputStream(), false, call.callId(), new byte[ChannelCrypto.NONCE_BYTES]);
        assertThatThrownBy(() -> ChannelHandshake.readAnswer(new DataInputStream(s.getInputStream())))
            .hasMessageContaining("refused");
      }
      assertThat(finish(call)).containsExactly(0, 1);
    }
  }

  @Test
  void controlTheRealKeyOfASealedChannelIsAdmitted() throws Exception {
    Map<String, Object> sealed = Map.of("driver.encryption", "always");
    try (SparkBackend backend = new SparkBackend(sc, sealed)) {
      LiveCall call = startBlockedCall(backend, sealed);
      Tripwire.READS.set(0);
      SparkCall live = call.channel().call(call.callId());
      assertThat(impersonate(call.channel(), call.callId(), live.token(), live.key())).isGreaterThanOrEqualTo(0);
      waitFor(() -> Tripwire.READS.get() > 0);
      assertThat(catchThrowable(() -> finish(call))).isNotNull();
    }
  }

  @Test
  void aHelloThatDeclaresAHugeTokenIsRefusedWithoutAllocatingIt() throws Exception {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (SparkBackend backend = new SparkBackend(sc)) {
      LiveCall call = startBlockedCall(backend, Map.of());
      long allocatedBefore = threads.getTotalThreadAllocatedBytes();
      try (Socket s = new Socket("127.0.0.1", call.channel().port())) {
        s.setSoTimeout(20_000); // the driver's own handshake timeout is 30 s: it must not wait for it
        ChannelHandshake.open(s.getOutputStream(), false, call.callId(), new byte[ChannelCrypto.NONCE_BYTES]);
        assertThat(ChannelHandshake.readAnswer(new DataInputStream(s.getInputStream()))).isNotNull();
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(64); // a HELLO of 64 bytes...
        out.writeByte(10);
        out.writeInt(io.joblib4j.spi.worker.Hello.VERSION);
        out.writeInt(1 << 30); // ... whose token says it is 1 GiB
        out.write(new byte[64 - 9]);
        out.flush();
        assertThat(s.getInputStream().read()).as("refused at once").isEqualTo(-1);
      }
      long allocated = threads.getTotalThreadAllocatedBytes() - allocatedBefore;
      assertThat(allocated).as("bytes allocated meanwhile, by every thread").isLessThan(256L << 20);
      assertThat(finish(call)).containsExactly(0, 1);
    }
  }

  @Test
  void garbageAfterTheHandshakeIsDroppedAndNothingIsDeserialized() throws Exception {
    java.util.Random random = new java.util.Random(19);
    for (boolean sealed : new boolean[] {false, true}) {
      Map<String, Object> options = sealed ? Map.of("driver.encryption", "always") : Map.of();
      try (SparkBackend backend = new SparkBackend(sc, options)) {
        LiveCall call = startBlockedCall(backend, options);
        Tripwire.READS.set(0);
        for (int attempt = 0; attempt < GARBAGE; attempt++) {
          try (Socket s = new Socket("127.0.0.1", call.channel().port())) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            if (attempt % 4 != 0) { // most get past the opening; every fourth sends garbage from the first byte
              ChannelHandshake.open(out, sealed, call.callId(), ChannelCrypto.random(ChannelCrypto.NONCE_BYTES));
              assertThat(ChannelHandshake.readAnswer(new DataInputStream(s.getInputStream()))).isNotNull();
            }
            byte[] junk = new byte[1 + random.nextInt(4096)];
            random.nextBytes(junk);
            if (attempt % 8 == 1) { // a plausible length and type first, so the body is what is wrong
              java.nio.ByteBuffer.wrap(junk).putInt(Math.min(junk.length, 60)).put((byte) 10);
            }
            out.write(junk);
            out.flush();
            s.shutdownOutput(); // the peer sees the end of what we said
            assertThat(s.getInputStream().read()).as("attempt %d: dropped", attempt).isEqualTo(-1);
          }
        }
        assertThat(Tripwire.READS.get()).isZero();
        assertThat(finish(call)).as("sealed=%s: the call was not disturbed", sealed).containsExactly(0, 1);
      }
    }
  }

  @Test
  void aLateWorkerIsToldItsCallIsOver() throws Exception {
    try (SparkBackend backend = new SparkBackend(sc)) {
      LiveCall call = startBlockedCall(backend, Map.of());
      try (Socket s = new Socket("127.0.0.1", call.channel().port())) {
        ChannelHandshake.open(s.getOutputStream(), false, "no-such-call", new byte[ChannelCrypto.NONCE_BYTES]);
        assertThat(ChannelHandshake.readAnswer(new DataInputStream(s.getInputStream()))).isNull();
      }
      assertThat(finish(call)).containsExactly(0, 1);
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
    for (int i = 0; i < 1200 && !condition.getAsBoolean(); i++) {
      Thread.sleep(50); // polling for an effect in another thread, bounded
    }
  }
}
