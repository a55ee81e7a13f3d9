package io.joblib4j.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A class's SLF4J logger, made on first use rather than when the class loads. SLF4J's start (its
 * search of the class path for a provider) costs a fresh JVM 20 to 30 ms, and the first call of a
 * short program logs nothing on its happy path: it should not wait for logging it never does.
 *
 * <pre>{@code
 * private static final LazyLogger LOG = LazyLogger.of(WorkerPool.class);
 * ...
 * LOG.get().debug("cannot send a batch to worker {}", name, e);
 * }</pre>
 */
public final class LazyLogger {
  private final Class<?> owner;
  private volatile Logger logger;

  private LazyLogger(Class<?> owner) {
    this.owner = owner;
  }

  /** The logger named for {@code owner}, made when first asked for. */
  public static LazyLogger of(Class<?> owner) {
    return new LazyLogger(owner);
  }

  /** The logger; SLF4J starts on the first call in this JVM. */
  public Logger get() {
    Logger l = logger;
    if (l == null) {
      l = LoggerFactory.getLogger(owner); // racing threads get the same logger from SLF4J
      logger = l;
    }
    return l;
  }
}
