package io.joblib4j.spark.internal;

import io.joblib4j.spi.worker.WorkerLink;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where executor-side workers connect to get batches: one listening socket per SparkContext and
 * address, shared by its calls, on the first free port of {@code spark.joblib4j.driver.port}.
 *
 * <p>Nothing a connection sends is deserialized, or sizes an allocation beyond a few bytes, before
 * it has proven itself. A worker first says which call it serves ({@link ChannelHandshake}); then,
 * on a plain channel, the protocol's HELLO with the call's token (32 bytes from the OS's secure
 * random source, compared in constant time), or, on a sealed channel, a first record that must
 * pass its AES-GCM tag under the call's key ({@link ChannelCrypto}). A connection that fails either
 * is closed and logged. At most {@value #MAX_HANDSHAKES} connections may be in their handshake at
 * once, each for at most 30 seconds, so strangers cannot tie up the driver's threads.
 */
final class DriverChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DriverChannel.class);
  private static final AtomicInteger IDS = new AtomicInteger();
  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);
  static final int MAX_HANDSHAKES = 128;

  /** What a channel is opened for: where executors connect, where the driver listens. */
  private record Address(String host, String bindAddress, PortRange ports) {}

  private final ServerSocket server;
  private final String advertisedHost;
  private final Map<String, SparkCall> calls = new ConcurrentHashMap<>();
  private final Semaphore handshakes = new Semaphore(MAX_HANDSHAKES);
  private final String name = "joblib4j-spark-channel-" + IDS.incrementAndGet();
  private volatile boolean closed;
  /** Why executors could not reach this channel, once a call found out; then calls run as Spark jobs. */
  private volatile String unreachable;

  /** Channels by SparkContext and address: one listening socket per application, not per backend. */
  private static final Map<SparkContext, Map<Address, DriverChannel>> BY_CONTEXT = new WeakHashMap<>();

  /** The channel of {@code sc} for {@code conf}, opened on first use and closed when the application ends. */
  static synchronized DriverChannel forContext(SparkContext sc, SparkJoblibConf conf) {
    Map<Address, DriverChannel> channels = BY_CONTEXT.get(sc);
    if (channels == null) {
      Map<Address, DriverChannel> fresh = new HashMap<>();
      channels = fresh;
      BY_CONTEXT.put(sc, fresh);
      sc.addSparkListener(new SparkListener() {
        @Override
        public void onApplicationEnd(SparkListenerApplicationEnd end) {
          synchronized (DriverChannel.class) {
            fresh.values().forEach(DriverChannel::close);
            fresh.clear();
          }
        }
      });
    }
    Address address = new Address(conf.driverHost(), conf.bindAddress(), conf.ports());
    DriverChannel ch = channels.get(address);
    if (ch == null || ch.closed) {
      ch = new DriverChannel(conf);
      channels.put(address, ch);
    }
    return ch;
  }

  private DriverChannel(SparkJoblibConf conf) {
    try {
      server = conf.ports().bind(InetAddress.getByName(conf.bindAddress()), 128);
    } catch (IOException e) {
      throw new IllegalStateException("joblib4j: the spark backend cannot listen on " + conf.bindAddress()
          + " (" + conf.ports() + ") for its executors (" + e.getMessage() + "); set "
          + SparkJoblibKeys.key(SparkJoblibKeys.BIND_ADDRESS) + " to a local address of the driver and "
          + SparkJoblibKeys.key(SparkJoblibKeys.DRIVER_PORT) + " to a free port, or a range such as"
          + " 40000-40100", e);
    }
    advertisedHost = conf.driverHost();
    Thread acceptor = new Thread(this::acceptLoop, name + "-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String host() {
    return advertisedHost;
  }

  int port() {
    return server.getLocalPort();
  }

  void register(SparkCall call) {
    calls.put(call.callId(), call);
  }

  void unregister(SparkCall call) {
    calls.remove(call.callId(), call);
  }

  /** The running call {@code callId}, or null; for tests that play a worker. */
  SparkCall call(String callId) {
    return calls.get(callId);
  }

  /** Why executors could not reach this channel, or null if none has failed to. */
  String unreachable() {
    return unreachable;
  }

  /** Remembers that executors cannot reach this channel: later calls go to Spark jobs at once. */
  void markUnreachable(String why) {
    unreachable = why;
  }

  private void acceptLoop() {
    while (!closed) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("joblib4j: the spark backend's channel stopped accepting workers", e);
        }
        return;
      }
      if (!handshakes.tryAcquire()) {
        LOG.warn("joblib4j: dropped a connection from {}: {} connections are already in their handshake",
            s.getRemoteSocketAddress(), MAX_HANDSHAKES);
        closeQuietly(s);
        continue;
      }
      Thread t = new Thread(() -> serve(s), name + "-worker-" + s.getRemoteSocketAddress());
      t.setDaemon(true);
      t.start();
    }
  }

  private void serve(Socket s) {
    Admitted admitted;
    try {
      admitted = handshake(s);
    } catch (IOException | RuntimeException e) {
      LOG.debug("joblib4j: dropped a connection from {} during its handshake: {}", s.getRemoteSocketAddress(),
          e.toString());
      if (e instanceof ChannelCrypto.SealBrokenException) {
        LOG.warn("joblib4j: refused a connection from {}: {}", s.getRemoteSocketAddress(), e.getMessage());
      }
      closeQuietly(s);
      return;
    } finally {
      handshakes.release();
    }
    if (admitted != null) {
      admitted.call.serve(admitted.link);
    }
  }

  /** A worker that proved itself, and its call. */
  private record Admitted(SparkCall call, WorkerLink link) {}

  /** The handshake of one connection: its worker, admitted; or null, the socket closed. */
  private Admitted handshake(Socket s) throws IOException {
    s.setSoTimeout((int) HANDSHAKE_TIMEOUT.toMillis());
    s.setTcpNoDelay(true);
    s.setKeepAlive(true);
    InputStream rawIn = s.getInputStream();
    OutputStream rawOut = s.getOutputStream();
    DataInputStream in = new DataInputStream(rawIn); // unbuffered: the protocol buffers what follows
    int first = in.readInt();
    if (first != ChannelHandshake.MAGIC) {
      refuseLegacyWorker(s, first, rawIn, rawOut);
      return null;
    }
    ChannelHandshake.Opening opening = ChannelHandshake.readOpening(in);
    if (opening.version() != ChannelHandshake.VERSION) {
      return refuse(s, "its handshake is version " + opening.version() + ", the driver's " + ChannelHandshake.VERSION);
    }
    SparkCall call = calls.get(opening.callId());
    if (call == null) {
      ChannelHandshake.answer(rawOut, ChannelHandshake.NO_SUCH_CALL, null); // a late worker of a call that is over
      closeQuietly(s);
      return null;
    }
    if (opening.sealed() != call.sealed()) {
      return refuse(s, "a " + (opening.sealed() ? "sealed" : "plain") + " connection for " + call.callId()
          + ", whose channel is " + (call.sealed() ? "sealed" : "plain"));
    }
    byte[] driverNonce = ChannelCrypto.random(ChannelCrypto.NONCE_BYTES);
    ChannelHandshake.answer(rawOut, ChannelHandshake.GO, driverNonce);
    InputStream fromWorker = rawIn;
    OutputStream toWorker = rawOut;
    if (call.sealed()) {
      ChannelCrypto crypto = ChannelCrypto.forConnection(call.key(), call.callId(), opening.nonce(), driverNonce);
      fromWorker = crypto.driverInput(rawIn);
      toWorker = crypto.driverOutput(rawOut);
    }
    WorkerLink link = WorkerLink.accept(fromWorker, toWorker, s);
    if (!link.hello().proves(call.token()) || !call.callId().equals(link.hello().scope())) {
      LOG.warn("joblib4j: refused a connection from {} for {}: wrong secret", s.getRemoteSocketAddress(),
          call.callId());
      link.close();
      return null;
    }
    if (!link.hello().compatible()) {
      call.workerRefused(link, DriverFailures.incompatibleWorker(link.hello()));
      return null;
    }
    s.setSoTimeout(0);
    return new Admitted(call, link);
  }

  private static Admitted refuse(Socket s, String why) throws IOException {
    LOG.warn("joblib4j: refused a worker from {}: {}", s.getRemoteSocketAddress(), why);
    ChannelHandshake.answer(s.getOutputStream(), ChannelHandshake.REFUSED, null);
    closeQuietly(s);
    return null;
  }

  /**
   * A connection that opens with a HELLO frame rather than the handshake: a worker of an older
   * joblib4j. If it proves itself for a call, that call fails saying so; otherwise it is dropped.
   */
  private void refuseLegacyWorker(Socket s, int first, InputStream rawIn, OutputStream rawOut) throws IOException {
    InputStream replayed = new SequenceInputStream(new ByteArrayInputStream(ByteBuffer.allocate(4).putInt(first).array()),
        rawIn);
    WorkerLink link = WorkerLink.accept(replayed, rawOut, s);
    SparkCall call = calls.get(link.hello().scope());
    if (call != null && !call.sealed() && link.hello().proves(call.token())) {
      call.workerRefused(link, DriverFailures.legacyWorker());
    } else {
      link.close();
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing is all we wanted
    }
  }

  @Override
  public void close() {
    closed = true;
    calls.values().forEach(SparkCall::cancel);
    try {
      server.close();
    } catch (IOException ignored) {
      // closing is all we wanted
    }
  }
}
