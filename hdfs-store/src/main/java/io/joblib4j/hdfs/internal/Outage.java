package io.joblib4j.hdfs.internal;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;

/**
 * A circuit breaker for one store: once the file system could not be reached, every call fails at
 * once for a while instead of each waiting out connection timeouts, so that memoized calls go on
 * computing at full speed during a NameNode outage. After the backoff, the next call tries again.
 */
final class Outage {
  private final String location;
  private final long backoffNanos;
  private volatile long until;
  private volatile IOException cause;

  Outage(String location, Duration backoff) {
    this.location = location;
    this.backoffNanos = backoff.toNanos();
  }

  /** An action against the file system. */
  @FunctionalInterface
  interface Call<T> {
    T run() throws IOException;
  }

  <T> T call(Call<T> action) throws IOException {
    IOException last = cause;
    if (last != null && System.nanoTime() - until < 0) {
      throw new IOException("the file system of " + location + " could not be reached (" + last.getMessage()
          + "); not retrying for " + Duration.ofNanos(backoffNanos).toSeconds() + " s", last);
    }
    try {
      T result = action.run();
      cause = null;
      return result;
    } catch (IOException e) {
      if (unreachable(e)) {
        until = System.nanoTime() + backoffNanos;
        cause = new IOException(e.toString() + " at " + Instant.now(), e);
      }
      throw e;
    }
  }

  /** Whether {@code e} says the service is down or unreachable, rather than that an operation failed. */
  static boolean unreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof NoRouteToHostException
          || t instanceof SocketTimeoutException || t instanceof UnknownHostException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
