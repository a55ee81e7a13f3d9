package io.joblib4j.hdfs.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on a loopback port in front of an S3 server that drops every request's {@code
 * If-None-Match} header: the server then never refuses a PUT of a taken name, as an S3-compatible
 * store without conditional writes does while the client believes it has them. Each connection
 * carries one request ({@code Connection: close} is forced), so only the head of the first request
 * of a connection is rewritten and the rest is copied byte for byte both ways.
 */
public final class IfNoneMatchStripper implements AutoCloseable {
  private final ServerSocket server;
  private final int upstreamPort;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "if-none-match-stripper");
    t.setDaemon(true);
    return t;
  });
  private final AtomicInteger stripped = new AtomicInteger();

  public IfNoneMatchStripper(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    pool.execute(this::accept);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** How many requests had an If-None-Match header dropped. */
  public int stripped() {
    return stripped.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        pool.execute(() -> serve(client));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client; Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
      InputStream in = client.getInputStream();
      byte[] head = readHead(in);
      if (head == null) {
        return;
      }
      OutputStream up = upstream.getOutputStream();
      up.write(rewrite(new String(head, StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1));
      up.flush();
      pool.execute(() -> copy(in, up, upstream));
      copy(upstream.getInputStream(), client.getOutputStream(), client);
    } catch (IOException e) {
      // the client or the server went away: the connection ends, as it would without the proxy
    }
  }

  /** The request head without If-None-Match, with Connection: close. */
  private String rewrite(String head) {
    StringBuilder out = new StringBuilder();
    for (String line : head.split("\r\n")) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("if-none-match:")) {
        stripped.incrementAndGet();
        continue;
      }
      if (lower.startsWith("connection:") || line.isEmpty()) {
        continue;
      }
      out.append(line).append("\r\n");
    }
    return out.append("Connection: close\r\n\r\n").toString();
  }

  /** The bytes up to and including the blank line that ends the head, or null at end of stream. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
    }
    return head.toByteArray();
  }

  private static void copy(InputStream from, OutputStream to, Socket toSocket) {
    byte[] buf = new byte[64 << 10];
    try {
      for (int n; (n = from.read(buf)) >= 0; ) {
        to.write(buf, 0, n);
        to.flush();
      }
      toSocket.shutdownOutput();
    } catch (IOException e) {
      // one side closed
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    pool.shutdownNow();
  }
}
