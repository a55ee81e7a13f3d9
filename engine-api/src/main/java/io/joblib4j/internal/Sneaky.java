package io.joblib4j.internal;

/**
 * Rethrows any throwable without declaring it, so that a task's checked exception reaches the
 * caller as itself rather than wrapped (joblib re-raises the worker's exception unchanged).
 */
public final class Sneaky {
  private Sneaky() {}

  /**
   * Throws {@code t} unchanged. Declared to return an exception so call sites can write
   * {@code throw Sneaky.rethrow(t)} and keep the compiler's flow analysis.
   */
  public static RuntimeException rethrow(Throwable t) {
    throw Sneaky.<RuntimeException>unchecked(t);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T unchecked(Throwable t) throws T {
    throw (T) t;
  }
}
