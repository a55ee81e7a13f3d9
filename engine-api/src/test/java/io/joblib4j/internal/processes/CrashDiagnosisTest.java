package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.WorkerCrashedException;
import org.junit.jupiter.api.Test;

class CrashDiagnosisTest {
  static CrashDiagnosis died(int code, String exiting, String oom) {
    return new CrashDiagnosis(42, code, exiting, oom, "", 256L << 20, true);
  }

  @Test
  void exitCodeThreeIsOutOfMemoryOnlyWithTheJvmsNotice() {
    assertThat(died(3, null, "Terminating due to java.lang.OutOfMemoryError: Java heap space").likelyCause())
        .isEqualTo("ran out of Java heap");
    assertThat(died(3, null, null).likelyCause()).isEqualTo("exited with code 3");
    assertThat(died(3, null, null).exception("b").getMessage()).contains("Runtime.halt(3)");
  }

  @Test
  void aShutdownHookReportMeansSystemExitUnlessASignalKilledTheWorker() {
    assertThat(died(0, "System.exit called at X.y(X.java:1)", null).likelyCause()).isEqualTo("task code called System.exit(0)");
    assertThat(died(143, "the JVM shut down", null).likelyCause()).isEqualTo("killed by SIGTERM");
  }

  @Test
  void signalsAreNamedWithTheirLikelyCause() {
    WorkerCrashedException e = died(137, null, null).exception("Scorer.score, batch 3");
    assertThat(e.getMessage()).startsWith("worker process 42 died while running Scorer.score, batch 3: exit code 137"
        + " (signal 9, SIGKILL). Likely cause: it was killed by SIGKILL");
    assertThat(e.signal()).hasValue(9);
    assertThat(died(134, null, null).exception("b").getMessage()).contains("SIGABRT").contains("hs_err_pid42.log");
    assertThat(died(139, null, null).likelyCause()).isEqualTo("killed by SIGSEGV");
  }

  @Test
  void aWorkerThatNeverConnectedSaysItCouldNotStartAndShowsItsOutput() {
    WorkerCrashedException e = new CrashDiagnosis(7, 1, null, null, "Unrecognized VM option 'X'", -1, false)
        .exception("b");
    assertThat(e.likelyCause()).isEqualTo("the worker JVM did not start");
    assertThat(e.getMessage()).contains("could not start to run b").contains("Unrecognized VM option 'X'");
    assertThat(e.exitCode()).hasValue(1);
    assertThat(e.signal()).isEmpty();
  }

  @Test
  void theWorkersOwnExitCodesSayItsMachineryFailed() {
    assertThat(died(WorkerExitCodes.PROTOCOL_ERROR, null, null).likelyCause()).isEqualTo("the worker's own machinery failed");
    assertThat(died(-1, null, null).exception("b").getMessage()).contains("its exit code is unknown");
  }
}
