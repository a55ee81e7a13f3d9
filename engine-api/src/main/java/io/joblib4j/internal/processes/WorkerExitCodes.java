package io.joblib4j.internal.processes;

/**
 * Exit codes a worker JVM uses for its own reasons, chosen away from the ones the JVM and shells
 * use (1 for an uncaught exception in main, 3 for {@code -XX:+ExitOnOutOfMemoryError}, 128 + n for
 * signal n) so that the parent can tell the worker's decisions from crashes. User code can still
 * exit with any code; the parent tells those apart by what the worker said before dying (see
 * {@link CrashDiagnosis}).
 */
final class WorkerExitCodes {
  /** The JVM's exit code for {@code -XX:+ExitOnOutOfMemoryError}. Reserved for out-of-memory. */
  static final int OUT_OF_MEMORY = 3;
  /** The parent went away (its socket or the worker's stdin reached end of file). */
  static final int PARENT_GONE = 86;
  /** The worker could not connect to the parent or the parent spoke out of turn. */
  static final int PROTOCOL_ERROR = 87;
  /** The worker's own machinery failed (a joblib4j bug); its stderr says why. */
  static final int INTERNAL_ERROR = 88;

  private WorkerExitCodes() {}
}
