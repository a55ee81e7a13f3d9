package io.joblib4j.spark.internal;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * The ports the driver's channel may listen on ({@code spark.joblib4j.driver.port}): {@code 0}
 * for any free port; {@code 40000} for that port or, when it is taken, the next ones up to {@code
 * spark.port.maxRetries} (16) further, as Spark's own ports do; {@code 40000-40100} for the first
 * free port of that range, for a firewall that opens exactly those.
 *
 * @param first the first port to try (0: any free port)
 * @param last the last port to try
 */
record PortRange(int first, int last) {
  static final PortRange ANY = new PortRange(0, 0);

  /** {@code text} as the setting {@code key} gives it; {@code maxRetries} extends a single port. */
  static PortRange parse(String key, String text, int maxRetries) {
    String t = text.trim();
    int dash = t.indexOf('-', 1);
    try {
      if (dash < 0) {
        int port = Integer.parseInt(t);
        checkPort(key, text, port);
        return port == 0 ? ANY : new PortRange(port, Math.min(65535, port + Math.max(0, maxRetries)));
      }
      int first = Integer.parseInt(t.substring(0, dash).trim());
      int last = Integer.parseInt(t.substring(dash + 1).trim());
      checkPort(key, text, first);
      checkPort(key, text, last);
      if (first == 0 || last < first) {
        throw new IllegalArgumentException(key + " must be a port, or a range of ports low-high such as"
            + " 40000-40100, not \"" + text + "\"");
      }
      return new PortRange(first, last);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a port number (0 for any free port) or a range"
          + " such as 40000-40100, not \"" + text + "\"", e);
    }
  }

  private static void checkPort(String key, String text, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(key + " must name ports between 0 and 65535, not \"" + text + "\"");
    }
  }

  /**
   * A server socket bound to {@code address} on the first free port of the range.
   *
   * @throws IOException naming the range when every port in it is taken (or the address is not local)
   */
  ServerSocket bind(InetAddress address, int backlog) throws IOException {
    BindException taken = null;
    for (int port = first; port <= last(); port++) {
      ServerSocket server = new ServerSocket();
      try {
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(address, port), backlog);
        return server;
      } catch (BindException e) {
        server.close();
        taken = e; // the next one, then
      } catch (IOException | RuntimeException e) {
        server.close();
        throw e;
      }
    }
    BindException none = new BindException("no free port in " + this + " on " + address.getHostAddress()
        + " (" + taken.getMessage() + ")");
    none.initCause(taken);
    throw none;
  }

  @Override
  public String toString() {
    return first == 0 ? "any free port" : first == last ? "port " + first : "ports " + first + "-" + last;
  }
}
