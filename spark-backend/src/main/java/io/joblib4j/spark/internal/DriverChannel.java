package io.joblib4j.spark.internal;

import io.joblib4j.spi.worker.WorkerLink;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where executor-side workers connect to get batches: one listening socket per backend, shared by
 * its calls. A worker must present its call's id and secret token (random per call, shipped only
 * inside the Spark task) before the driver reads anything else from it, so no other process can
 * feed the driver objects to deserialize.
 */
final class DriverChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DriverChannel.class);
  private static final AtomicInteger IDS = new AtomicInteger();
  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);

  private final ServerSocket server;
  private final String advertisedHost;
  private final Map<String, SparkCall> calls = new ConcurrentHashMap<>();
  private final String name = "joblib4j-spark-channel-" + IDS.incrementAndGet();
  private volatile boolean closed;

  /** Channels by SparkContext and settings: one listening socket per application, not per backend. */
  private static final Map<SparkContext, Map<SparkJoblibConf, DriverChannel>> BY_CONTEXT = new WeakHashMap<>();

  /** The channel of {@code sc} for {@code conf}, opened on first use and closed when the application ends. */
  static synchronized DriverChannel forContext(SparkContext sc, SparkJoblibConf conf) {
    Map<SparkJoblibConf, DriverChannel> channels = BY_CONTEXT.get(sc);
    if (channels == null) {
      Map<SparkJoblibConf, DriverChannel> fresh = new HashMap<>();
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
    DriverChannel ch = channels.get(conf);
    if (ch == null || ch.closed) {
      ch = new DriverChannel(conf);
      channels.put(conf, ch);
    }
    return ch;
  }

  private DriverChannel(SparkJoblibConf conf) {
    try {
      server = new ServerSocket();
      server.setReuseAddress(true);
      server.bind(new InetSocketAddress(InetAddress.getByName(conf.bindAddress()), conf.driverPort()), 128);
    } catch (IOException e) {
      throw new IllegalStateException("joblib4j: the spark backend cannot listen on "
          + conf.bindAddress() + ":" + conf.driverPort() + " for its executors (" + e + "); set "
          + SparkJoblibConf.BIND_ADDRESS + " / " + SparkJoblibConf.DRIVER_PORT + " to a free local"
          + " address and port", e);
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
      Thread t = new Thread(() -> serve(s), name + "-worker-" + s.getRemoteSocketAddress());
      t.setDaemon(true);
      t.start();
    }
  }

  private void serve(Socket s) {
    WorkerLink link;
    try {
      link = WorkerLink.accept(s, HANDSHAKE_TIMEOUT);
    } catch (IOException e) {
      return; // not a worker, or one that said nothing in time; the socket is closed
    }
    SparkCall call = calls.get(link.hello().scope());
    if (call == null || !link.hello().proves(call.token())) {
      // a late worker of a call that is over (or a stranger): it returns when the socket closes
      link.close();
      return;
    }
    if (!link.hello().compatible()) {
      call.workerRefused(link, DriverFailures.incompatibleWorker(link.hello()));
      return;
    }
    call.serve(link);
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
