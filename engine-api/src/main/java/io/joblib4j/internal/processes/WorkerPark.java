package io.joblib4j.internal.processes;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A parked worker's wait for its next parent ({@link WarmWorkers}): it listens on the socket its
 * parent named, takes the first connection that sends a valid ADOPT for its key, and stops
 * listening (deleting the socket) before it answers, so that only one program adopts it. Nobody by
 * the deadline: the worker exits. Connections that say anything else are dropped. A worker whose
 * class path has folders parks only while their classes are the ones it started with ({@link
 * FolderGuard}, watching from its first park to its exit).
 */
final class WorkerPark {
  private WorkerPark() {}

  /** The connection of the program that adopted this worker, and what it sent. */
  record Adoption(SocketChannel channel, WarmWorkers.Adopt adopt) {}

  /**
   * Waits at {@code note}'s socket for an adopter; null when none came within its time (or the
   * socket cannot be made), and the worker should exit.
   */
  static Adoption await(WarmWorkers.Note note) {
    java.util.Optional<Path> at = note.socket(ProcessHandle.current().pid());
    if (at.isEmpty()) {
      return null; // a folder path too long for a socket: nobody could connect
    }
    Path socket = at.get();
    FolderGuard guard = Lifelong.GUARD;
    if (guard == null || guard.changed()) {
      return null; // a class of this worker's folders changed since it started, or cannot be watched
    }
    ServerSocketChannel server;
    try {
      Files.deleteIfExists(socket); // a stale one of a worker with this pid, long gone
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket), 8);
    } catch (IOException | RuntimeException e) {
      System.err.println("joblib4j worker: cannot park at " + socket + ": " + e);
      return null;
    }
    Listening listening = new Listening(server, socket);
    guard.onChange(listening::expire); // its classes are not the folder's any more: nobody may adopt it
    Thread deadline = new Thread(() -> {
      try {
        Thread.sleep(note.keepMillis());
        listening.expire();
      } catch (InterruptedException e) {
        // adopted
      }
    }, "joblib4j-worker-park-deadline");
    deadline.setDaemon(true);
    deadline.start();
    try {
      while (true) {
        SocketChannel ch;
        try {
          ch = server.accept();
        } catch (IOException e) {
          return null; // expired: the listener is closed
        }
        if (!listening.beginAdoption()) {
          ChannelStreams.closeQuietly(ch);
          return null;
        }
        WarmWorkers.Adopt adopt = readAdopt(ch);
        if (adopt != null && adopt.key().equals(note.key()) && !guard.changed()) {
          deadline.interrupt();
          return new Adoption(ch, adopt);
        }
        ChannelStreams.closeQuietly(ch);
        if (!listening.endAdoption()) {
          return null;
        }
      }
    } finally {
      guard.onChange(NOTHING); // watching on: a change while adopted keeps it from parking again
      listening.close();
    }
  }

  private static final Runnable NOTHING = () -> { };

  /**
   * The guard of this worker's class path folders, started at its first park and kept for its life:
   * parking again after each program walks no folder (on a class path of a few thousand files that
   * walk took the next program's first call some of the two cores), and a change while a program
   * had adopted the worker is seen all the same. Null if a class changed before the first park or
   * the folders cannot be watched.
   */
  private static final class Lifelong {
    static final FolderGuard GUARD = FolderGuard.start();
  }

  /**
   * The listener while the worker waits: it expires (at the deadline, or when its classes change)
   * by closing, unless a connection is being read as an adoption, which then finds it expired.
   */
  private static final class Listening {
    private final ServerSocketChannel server;
    private final Path socket;
    private boolean adopting;
    private boolean expired;

    Listening(ServerSocketChannel server, Path socket) {
      this.server = server;
      this.socket = socket;
    }

    synchronized void expire() {
      expired = true;
      if (!adopting) {
        close();
      }
    }

    /** False if expired: no adoption may begin. */
    synchronized boolean beginAdoption() {
      adopting = !expired;
      return adopting;
    }

    /** The connection was not an adoption; false if the wait expired meanwhile. */
    synchronized boolean endAdoption() {
      adopting = false;
      return !expired;
    }

    /** Stops listening and deletes the socket; idempotent. */
    void close() {
      ChannelStreams.closeQuietly(server);
      try {
        Files.deleteIfExists(socket);
      } catch (IOException e) {
        // the adopter's sweep deletes it
      }
    }
  }

  /** The ADOPT message, or null if the peer sent something else or nothing within the handshake time. */
  private static WarmWorkers.Adopt readAdopt(SocketChannel ch) {
    boolean[] done = new boolean[1];
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(WarmWorkers.HANDSHAKE.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      synchronized (done) {
        if (!done[0]) {
          ChannelStreams.closeQuietly(ch); // a peer that says nothing must not keep the next adopter out
        }
      }
    }, "joblib4j-worker-adopt-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    try {
      return WarmWorkers.Adopt.read(ChannelStreams.in(ch));
    } catch (IOException | RuntimeException e) {
      return null;
    } finally {
      synchronized (done) {
        done[0] = true;
      }
      watchdog.interrupt();
    }
  }
}
