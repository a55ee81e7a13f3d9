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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy on a loopback port in front of an S3 server that counts the requests it passes, by
 * kind ({@link #requests()}), and can drop every request's {@code If-None-Match} header: the server
 * then never refuses a PUT of a taken name, as an S3-compatible store without conditional writes
 * does while the client believes it has them. Counting here sees every client of the server, the
 * executors of a local-cluster too, where a client's own statistics see one JVM. Each connection
 * carries one request ({@code Connection: close} is forced), so only the head of the first request
 * of a connection is read and rewritten, and the rest is copied byte for byte both ways.
 */
public final class FrontProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int upstreamPort;
  private final boolean dropIfNoneMatch;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "s3-front-proxy");
    t.setDaemon(true);
    return t;
  });
  private final AtomicInteger stripped = new AtomicInteger();
  private final Map<String, AtomicLong> requests = new ConcurrentHashMap<>();

  /**
   * @param upstreamPort the S3 server's port on the loopback address
   * @param dropIfNoneMatch whether to drop {@code If-None-Match} from every request
   */
  public FrontProxy(int upstreamPort, boolean dropIfNoneMatch) throws IOException {
    this.upstreamPort = upstreamPort;
    this.dropIfNoneMatch = dropIfNoneMatch;
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

  /**
   * The requests passed so far, by kind: {@code LIST} (a GET of a bucket with {@code list-type}),
   * {@code GET}, {@code HEAD}, {@code PUT}, {@code POST} (multipart, bulk delete), {@code DELETE}.
   */
  public Map<String, Long> requests() {
    Map<String, Long> out = new TreeMap<>();
    requests.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  /** The kind of a request, from its request line ({@code GET /bucket?list-type=2&prefix=... HTTP/1.1}). */
  static String kind(String requestLine) {
    String[] parts = requestLine.split(" ");
    String method = parts[0];
    if (method.equals("GET") && parts.length > 1 && parts[1].contains("list-type=")) {
      return "LIST";
    }
    return method;
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

  /** The request head, counted, with Connection: close and, if asked, without If-None-Match. */
  private String rewrite(String head) {
    StringBuilder out = new StringBuilder();
    String[] lines = head.split("\r\n");
    requests.computeIfAbsent(kind(lines[0]), k -> new AtomicLong()).incrementAndGet();
    for (String line : lines) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (dropIfNoneMatch && lower.startsWith("if-none-match:")) {
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
