package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where one worker connects to its parent: a Unix-domain socket in a folder only this user may
 * enter ({@code rwx------}), so no other local user can even connect; loopback TCP only where
 * Unix-domain sockets are not available (or the folder's path is too long for one). Either way
 * the worker proves itself with its 256-bit token ({@link WorkerTokens}) in its HELLO, compared in
 * constant time, before the parent reads anything else from the connection: a connection that
 * says anything else, too much, or nothing in time is dropped, and the listener waits for the
 * next one.
 */
final class WorkerListener implements Closeable {
  private static final LazyLogger LOG = LazyLogger.of(WorkerListener.class);
  /** sun_path holds 108 bytes on Linux, 104 on macOS, with the terminating zero. */
  private static final int MAX_SOCKET_PATH = 100;

  private final ServerSocketChannel server;
  private final Path socketFile;
  private final List<String> workerArguments;
  private final AtomicBoolean closed = new AtomicBoolean();

  private WorkerListener(ServerSocketChannel server, Path socketFile, List<String> workerArguments) {
    this.server = server;
    this.socketFile = socketFile;
    this.workerArguments = workerArguments;
  }

  /**
   * A listener with its socket file {@code name} in {@code folder} (which must be this user's
   * only, see {@link TempFolders#create}), or on a loopback port if that cannot be.
   */
  static WorkerListener open(Path folder, String name) throws IOException {
    Path file = folder.resolve(name).toAbsolutePath();
    if (file.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH) {
      try {
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
          s.bind(UnixDomainSocketAddress.of(file), 4);
          return new WorkerListener(s, file, List.of("unix", file.toString()));
        } catch (IOException | RuntimeException e) {
          s.close();
          throw e;
        }
      } catch (UnsupportedOperationException | IOException e) {
        LOG.get().debug("no Unix-domain socket at {}; workers connect over loopback TCP", file, e);
      }
    }
    ServerSocketChannel s = ServerSocketChannel.open();
    InetAddress loopback = InetAddress.getLoopbackAddress();
    s.bind(new InetSocketAddress(loopback, 0), 4);
    int port = ((InetSocketAddress) s.getLocalAddress()).getPort();
    return new WorkerListener(s, null, List.of("tcp", loopback.getHostAddress(), Integer.toString(port)));
  }

  /** What the worker's command line says to connect here (no secret: the token goes by the environment). */
  List<String> workerArguments() {
    return workerArguments;
  }

  /** Whether workers connect over a Unix-domain socket. */
  boolean unixDomain() {
    return socketFile != null;
  }

  /**
   * The first connection whose HELLO proves {@code token} and speaks this protocol version; others
   * are dropped unread past their HELLO. Blocks until then, or throws once {@link #close} was
   * called (the worker died, or the start timeout passed).
   */
  WorkerLink accept(byte[] token, Duration handshakeTimeout) throws IOException {
    while (true) {
      SocketChannel ch = server.accept();
      AtomicBoolean greeted = new AtomicBoolean();
      // a peer that connects and says nothing is dropped, so that it cannot keep the worker out
      WorkerPools.schedule(() -> {
        if (!greeted.get()) {
          ChannelStreams.closeQuietly(ch);
        }
      }, Math.max(1, handshakeTimeout.toMillis()));
      try {
        if (!unixDomain()) {
          ch.setOption(StandardSocketOptions.TCP_NODELAY, true); // a reply waits for each small frame
        }
        WorkerLink link = WorkerLink.accept(ChannelStreams.in(ch), ChannelStreams.out(ch), ch);
        greeted.set(true);
        if (link.hello().proves(token) && link.hello().compatible()) {
          return link;
        }
        LOG.get().debug("dropped a connection that did not prove this worker's token or spoke another protocol version");
        link.close();
      } catch (IOException e) {
        greeted.set(true);
        ChannelStreams.closeQuietly(ch);
        if (closed.get()) {
          throw e;
        }
        LOG.get().debug("dropped a connection that did not say HELLO", e);
      }
    }
  }

  /** Stops listening, unblocking {@link #accept}, and deletes the socket file. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    ChannelStreams.closeQuietly(server);
    if (socketFile != null) {
      try {
        Files.deleteIfExists(socketFile);
      } catch (IOException e) {
        LOG.get().debug("cannot delete {}", socketFile, e);
      }
    }
  }
}
