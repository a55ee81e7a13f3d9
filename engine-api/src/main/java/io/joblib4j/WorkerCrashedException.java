package io.joblib4j;

import java.io.Serial;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * A worker JVM of the {@code processes} backend died while it ran a batch of the call: it was
 * killed (the operating system's out-of-memory killer, {@code kill -9}), ran out of Java heap,
 * crashed in native code, or task code called {@code System.exit} / {@code Runtime.halt}. The
 * message names the worker's pid, its exit code or signal, and the likely cause.
 *
 * <p>The call fails (joblib's {@code TerminatedWorkerError}); the backend replaces the worker, so
 * the next call on the same backend works. Tasks are not retried: they may have had side effects.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class WorkerCrashedException extends JoblibException {
  @Serial private static final long serialVersionUID = 1L;

  /** The worker's process id. */
  private final long pid;
  /** Its exit status, or -1 if unknown. */
  private final int exitCode;
  /** A short phrase saying why it likely died. */
  private final String likelyCause;

  /**
   * @param message the full explanation shown to the user
   * @param pid the worker's process id
   * @param exitCode its exit status as Java reports it ({@code 128 + n} for death by signal
   *     {@code n} on Linux and macOS), or {@code -1} if unknown
   * @param likelyCause a short phrase, e.g. {@code "ran out of Java heap"}
   */
  public WorkerCrashedException(String message, long pid, int exitCode, String likelyCause) {
    super(message);
    this.pid = pid;
    this.exitCode = exitCode;
    this.likelyCause = likelyCause;
  }

  /**
   * The process id of the worker that died.
   *
   * @return the process id
   */
  public long pid() {
    return pid;
  }

  /**
   * The worker's exit status, if it is known.
   *
   * @return the exit status, if known
   */
  public OptionalInt exitCode() {
    return exitCode < 0 ? OptionalInt.empty() : OptionalInt.of(exitCode);
  }

  /**
   * The signal that killed the worker ({@code 9} for SIGKILL), if it died by a signal.
   *
   * @return the signal, if the worker died of one
   */
  public OptionalInt signal() {
    return exitCode > 128 && exitCode < 128 + 65 ? OptionalInt.of(exitCode - 128) : OptionalInt.empty();
  }

  /**
   * The likely cause, e.g. {@code "ran out of Java heap"} or {@code "killed by SIGKILL"}.
   *
   * @return e.g. {@code "ran out of Java heap"}
   */
  public String likelyCause() {
    return likelyCause;
  }
}
