package io.joblib4j.spark.internal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
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
  private static final int HANDSHAKE_TIMEOUT_MILLIS = 30_000;

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
    WorkerConnection conn;
    SparkCall call;
    try {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      s.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
      if (in.readByte() != Frames.HELLO) {
        s.close();
        return;
      }
      String callId = Frames.readText(in, 1024);
      byte[] token = Frames.readBytes(in, 1024, "a token");
      String worker = Frames.readText(in, 4096);
      call = calls.get(callId);
      if (call == null || !MessageDigest.isEqual(token, call.token())) {
        // a late worker of a call that is over (or a stranger): it returns when the socket closes
        s.close();
        return;
      }
      s.setSoTimeout(0);
      conn = new WorkerConnection(worker, s, in, out);
    } catch (SocketTimeoutException e) {
      closeQuietly(s);
      return;
    } catch (IOException e) {
      closeQuietly(s);
      return;
    }
    call.serve(conn);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // nothing more to do
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
