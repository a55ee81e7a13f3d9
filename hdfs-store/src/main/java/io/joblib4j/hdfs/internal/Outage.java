package io.joblib4j.hdfs.internal;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A circuit breaker per file system: once it could not be reached, every call fails at once for a
 * while instead of each waiting out connection or RPC timeouts, so that memoized calls go on
 * computing at full speed while a NameNode is down or frozen.
 *
 * <p>The state is kept per file system (scheme and authority) for the whole JVM, not per store:
 * a store opened afterwards for the same NameNode — by a new {@code Memory}, or the next task on an
 * executor, which reopens the store it was shipped — fails at once too, instead of waiting out the
 * timeout again. When the backoff has passed, one call tries the file system again while the others
 * still fail at once; if it gets through, every call does.
 */
final class Outage {
  private static final Map<String, State> STATES = new ConcurrentHashMap<>();

  private final String fileSystem;
  private final State state;
  private final long backoffNanos;

  private Outage(String fileSystem, State state, Duration backoff) {
    this.fileSystem = fileSystem;
    this.state = state;
    this.backoffNanos = backoff.toNanos();
  }

  /** What this JVM knows about one file system. */
  private static final class State {
    volatile long until;
    volatile IOException cause;
    final AtomicBoolean probing = new AtomicBoolean();
  }

  /** The breaker of the file system holding {@code location}, with this store's backoff. */
  static Outage of(URI location, Duration backoff) {
    String fileSystem = location.getScheme() + "://" + (location.getAuthority() == null ? "" : location.getAuthority());
    return new Outage(fileSystem, STATES.computeIfAbsent(fileSystem, k -> new State()), backoff);
  }

  /** An action against the file system. */
  @FunctionalInterface
  interface Call<T> {
    T run() throws IOException;
  }

  /** Fails at once if the file system could not be reached within the backoff. */
  void check() throws IOException {
    IOException last = state.cause;
    if (last != null && System.nanoTime() - state.until < 0) {
      throw failingFast(last);
    }
  }

  <T> T call(Call<T> action) throws IOException {
    boolean probe = false;
    IOException last = state.cause;
    if (last != null) {
      if (System.nanoTime() - state.until < 0 || !state.probing.compareAndSet(false, true)) {
        throw failingFast(last);
      }
      probe = true;
    }
    try {
      T result = action.run();
      state.cause = null;
      return result;
    } catch (IOException e) {
      if (unreachable(e)) {
        record(e);
      }
      throw e;
    } catch (RuntimeException e) {
      if (unreachable(e)) { // a client that wraps its I/O errors: still an outage, and still an I/O error
        IOException io = new IOException(e.toString(), e);
        record(io);
        throw io;
      }
      throw e;
    } finally {
      if (probe) {
        state.probing.set(false);
      }
    }
  }

  private void record(IOException e) {
    state.until = System.nanoTime() + backoffNanos;
    state.cause = new IOException(e + " at " + Instant.now(), e);
  }

  private IOException failingFast(IOException last) {
    return new IOException("the file system " + fileSystem + " could not be reached (" + last.getMessage()
        + "); calls to it fail at once for " + Duration.ofNanos(backoffNanos).toSeconds() + " s after that"
        + " (store option outageBackoff) instead of waiting for it", last);
  }

  /**
   * Whether {@code e} says the service is down, unreachable or not answering, rather than that an
   * operation failed: a refused, reset or broken connection, a timeout, an unknown host, or an RPC
   * connection the server closed mid-call. A server closing the connection reaches the RPC client as
   * an end of stream or, when the reset arrives before the read, as the socket channel's plain
   * {@code IOException("Connection reset by peer")}: which of the two is a matter of timing, so both
   * count.
   */
  static boolean unreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SocketException || t instanceof SocketTimeoutException || t instanceof UnknownHostException
          || t instanceof EOFException && fromRpcClient(t) || raisedBySocketChannel(t) && fromRpcClient(t)) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /**
   * Whether {@code t} was raised by a socket channel's own read or write: the JDK reports a reset
   * there as a plain {@code IOException}, not as a {@code SocketException}. A file channel's error
   * (a failing local disk) is raised by another class and does not count.
   */
  private static boolean raisedBySocketChannel(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    return frames.length > 0 && frames[0].getClassName().startsWith("sun.nio.ch.Socket");
  }

  /** Whether {@code t} was thrown reading an RPC response (the end of a file being read is no outage). */
  private static boolean fromRpcClient(Throwable t) {
    for (StackTraceElement frame : t.getStackTrace()) {
      if (frame.getClassName().startsWith("org.apache.hadoop.ipc.Client")) {
        return true;
      }
    }
    return false;
  }
}
