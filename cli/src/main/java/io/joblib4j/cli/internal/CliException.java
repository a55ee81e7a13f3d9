package io.joblib4j.cli.internal;

/** A failure the command reports as one line on stderr and an exit code, without a stack trace. */
public final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
