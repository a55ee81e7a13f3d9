package io.joblib4j.hdfs.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP server standing in for a NameNode that is there but broken: one that accepts connections
 * and never answers (a frozen or overloaded NameNode: the kernel still accepts), or one that resets
 * every connection. It counts the connections made to it, so a test can tell whether a store
 * contacted it at all.
 */
final class FakeNameNode implements AutoCloseable {
  enum Behaviour { SILENT, RESET }

  private final ServerSocket server;
  private final Behaviour behaviour;
  private final AtomicInteger accepted = new AtomicInteger();
  private final List<Socket> held = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  FakeNameNode(Behaviour behaviour) throws IOException {
    this.behaviour = behaviour;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::serve, "fake-namenode-" + behaviour);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void serve() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        accepted.incrementAndGet();
        if (behaviour == Behaviour.RESET) {
          s.setSoLinger(true, 0); // close with RST: the client sees "Connection reset"
          s.close();
        } else {
          held.add(s); // never read, never answered
        }
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** {@code hdfs://127.0.0.1:<port><path>}. */
  URI uri(String path) {
    return URI.create("hdfs://127.0.0.1:" + server.getLocalPort() + path);
  }

  /** How many connections were accepted so far. */
  int connections() {
    return accepted.get();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : held) {
      s.close();
    }
  }
}
