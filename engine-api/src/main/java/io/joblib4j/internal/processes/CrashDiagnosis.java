package io.joblib4j.internal.processes;

import io.joblib4j.WorkerCrashedException;

/**
 * Turns how a worker JVM ended into an explanation: which worker, its exit code or signal, and the
 * likely cause. Exit codes alone are ambiguous ({@code -XX:+ExitOnOutOfMemoryError} exits with 3,
 * and so does {@code Runtime.halt(3)}), so the diagnosis also uses what the worker said first: the
 * JVM's out-of-memory notice on its output, and the EXITING frame its shutdown hook sends when
 * {@code System.exit} is called or it receives SIGTERM.
 *
 * @param pid the worker's process id (0 if it never started)
 * @param exitCode its exit status, or -1 if unknown
 * @param exitingNote what the shutdown hook reported (who called System.exit), or null
 * @param oomNotice the JVM's "Terminating due to java.lang.OutOfMemoryError" line, or null
 * @param lastOutput the last lines of the worker's stderr (and stdout), for context
 * @param maxHeapBytes the worker's maximum heap, or -1 if it never connected
 * @param connected whether the worker had connected to the parent
 */
record CrashDiagnosis(long pid, int exitCode, String exitingNote, String oomNotice, String lastOutput,
    long maxHeapBytes, boolean connected) {

  /** The likely cause in a few words. */
  String likelyCause() {
    if (oomNotice != null && exitCode == WorkerExitCodes.OUT_OF_MEMORY) {
      return "ran out of Java heap";
    }
    if (exitingNote != null && exitCode >= 0 && exitCode < 128) {
      return "task code called System.exit(" + exitCode + ")";
    }
    if (exitCode > 128 && exitCode < 128 + 65) {
      return "killed by " + signalName(exitCode - 128);
    }
    if (exitCode == WorkerExitCodes.PROTOCOL_ERROR || exitCode == WorkerExitCodes.INTERNAL_ERROR) {
      return "the worker's own machinery failed";
    }
    if (!connected) {
      return "the worker JVM did not start";
    }
    return exitCode < 0 ? "unknown" : "exited with code " + exitCode;
  }

  /** The exception for the call whose batch {@code batch} was on this worker. */
  WorkerCrashedException exception(String batch) {
    StringBuilder m = new StringBuilder("worker process ").append(pid)
        .append(connected ? " died while running " + batch : " could not start to run " + batch)
        .append(": ").append(exitText()).append(". Likely cause: ").append(explanation()).append('.');
    if (!lastOutput.isEmpty()) {
      m.append("\n  Last output of the worker:\n    ").append(lastOutput.replace("\n", "\n    "));
    }
    m.append("\n  The backend replaces the worker; the call's tasks are not retried.");
    return new WorkerCrashedException(m.toString(), pid, exitCode, likelyCause());
  }

  private String exitText() {
    if (exitCode < 0) {
      return "its exit code is unknown";
    }
    if (exitCode > 128 && exitCode < 128 + 65) {
      return "exit code " + exitCode + " (signal " + (exitCode - 128) + ", " + signalName(exitCode - 128) + ")";
    }
    return "exit code " + exitCode;
  }

  private String explanation() {
    if (oomNotice != null && exitCode == WorkerExitCodes.OUT_OF_MEMORY) {
      return "it ran out of Java heap (" + oomNotice + "; its maximum heap was " + mib(maxHeapBytes)
          + "). Raise the backend's heap option, e.g. ParallelConfig.backend(\"processes\").option(\"heap\", \"4g\"),"
          + " or make the tasks use less memory";
    }
    if (exitingNote != null && exitCode >= 0 && exitCode < 128) {
      return "task code called System.exit(" + exitCode + "): " + exitingNote
          + ". Code run by a task must not end the JVM";
    }
    if (exitCode == 128 + 9) {
      return "it was killed by SIGKILL: by the operating system's out-of-memory killer when the machine ran"
          + " short of memory (see dmesg), or by kill -9 from outside";
    }
    if (exitCode == 128 + 15 || exitCode == 128 + 2 || exitCode == 128 + 1) {
      return "it was stopped by " + signalName(exitCode - 128) + " from outside";
    }
    if (exitCode == 128 + 6 || exitCode == 128 + 11 || exitCode == 128 + 7 || exitCode == 128 + 4) {
      return "the JVM crashed (" + signalName(exitCode - 128) + "), usually in native code; look for an"
          + " hs_err_pid" + pid + ".log file in the worker's working directory";
    }
    if (exitCode == WorkerExitCodes.OUT_OF_MEMORY) {
      return "the worker exited with code 3 without the JVM's out-of-memory notice: task code called"
          + " Runtime.halt(3) or native code called exit(3) (code 3 is reserved for running out of heap)";
    }
    if (exitCode == WorkerExitCodes.PROTOCOL_ERROR || exitCode == WorkerExitCodes.INTERNAL_ERROR) {
      return "the worker lost its connection or failed internally (a joblib4j bug; its output says more)";
    }
    if (!connected) {
      return "the worker JVM exited before it connected to this JVM; check the backend's heap and"
          + " jvmOptions and the output above";
    }
    if (exitCode < 0) {
      return "the worker's connection closed but its exit could not be observed";
    }
    return "the worker exited with code " + exitCode + " without System.exit: task code called"
        + " Runtime.halt(" + exitCode + "), or native code called exit(" + exitCode + ")";
  }

  static String signalName(int signal) {
    return switch (signal) {
      case 1 -> "SIGHUP";
      case 2 -> "SIGINT";
      case 4 -> "SIGILL";
      case 6 -> "SIGABRT";
      case 7 -> "SIGBUS";
      case 9 -> "SIGKILL";
      case 11 -> "SIGSEGV";
      case 15 -> "SIGTERM";
      default -> "signal " + signal;
    };
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "unknown" : (bytes >> 20) + " MiB";
  }
}
