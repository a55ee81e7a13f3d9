package io.joblib4j.spark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on loopback that records every byte it passes on, for tests that look at what
 * crosses the wire between executors and the driver: it listens on {@code 127.0.0.2:P} and
 * forwards each connection to {@code 127.0.0.1:P}, where the driver listens (Linux routes all of
 * 127/8 to the loopback device). Executors are pointed at it with {@code driver.host=127.0.0.2},
 * {@code driver.bindAddress=127.0.0.1} and {@code driver.port=P-P}.
 */
public final class WireTap implements AutoCloseable {
  public static final String TAPPED_HOST = "127.0.0.2";
  public static final String DRIVER_HOST = "127.0.0.1";

  private final ServerSocket server;
  /** One recording per connection: connections run at once, so one shared buffer would interleave them. */
  private final CopyOnWriteArrayList<ByteArrayOutputStream> toDriver = new CopyOnWriteArrayList<>();
  private final CopyOnWriteArrayList<ByteArrayOutputStream> toExecutors = new CopyOnWriteArrayList<>();
  private final CopyOnWriteArrayList<Socket> open = new CopyOnWriteArrayList<>();

  public WireTap() throws IOException {
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getByName(TAPPED_HOST), 0));
    Thread t = new Thread(this::acceptLoop, "wire-tap-accept");
    t.setDaemon(true);
    t.start();
  }

  /** The port both the tap and the driver listen on (on their own addresses). */
  public int port() {
    return server.getLocalPort();
  }

  /** The backend options that route executors through the tap. */
  public java.util.Map<String, Object> options() {
    return java.util.Map.of("driver.host", TAPPED_HOST, "driver.bindAddress", DRIVER_HOST,
        "driver.port", port() + "-" + port());
  }

  public int connections() {
    return toDriver.size();
  }

  /** What executors sent the driver so far, one entry per connection, in the order they were accepted. */
  public List<byte[]> sentToDriverByConnection() {
    return snapshot(toDriver);
  }

  /** Everything executors sent the driver so far, all connections one after another. */
  public byte[] sentToDriver() {
    return concat(snapshot(toDriver));
  }

  /** Everything the driver sent executors so far, all connections one after another. */
  public byte[] sentToExecutors() {
    return concat(snapshot(toExecutors));
  }

  private static List<byte[]> snapshot(List<ByteArrayOutputStream> recordings) {
    List<byte[]> copies = new ArrayList<>();
    for (ByteArrayOutputStream r : recordings) {
      synchronized (r) {
        copies.add(r.toByteArray());
      }
    }
    return copies;
  }

  private static byte[] concat(List<byte[]> parts) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    parts.forEach(all::writeBytes);
    return all.toByteArray();
  }

  /** Whether {@code text}, as Java serialization writes a String (modified UTF-8 of ASCII), crossed in either direction. */
  public boolean sawText(String text) {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    List<byte[]> connections = snapshot(toDriver);
    connections.addAll(snapshot(toExecutors));
    return connections.stream().anyMatch(bytes -> indexOf(bytes, needle) >= 0); // not across two connections' seam
  }

  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket executor = server.accept();
        Socket driver = new Socket(DRIVER_HOST, port());
        open.add(executor);
        open.add(driver);
        ByteArrayOutputStream up = new ByteArrayOutputStream();
        ByteArrayOutputStream down = new ByteArrayOutputStream();
        toExecutors.add(down);
        toDriver.add(up); // last: connections() counts a connection once both recordings exist
        pump(executor, driver, up);
        pump(driver, executor, down);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, ByteArrayOutputStream record) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[1 << 16];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buf)) > 0) {
          synchronized (record) {
            record.write(buf, 0, n);
          }
          out.write(buf, 0, n);
        }
      } catch (IOException e) {
        // one side closed
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "wire-tap-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing is all we wanted
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    open.forEach(WireTap::closeQuietly);
  }
}
