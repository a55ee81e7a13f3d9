package io.joblib4j.internal.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.ProgressListener.CallInfo;
import io.joblib4j.ProgressListener.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class VerboseReporterTest {
  @Test
  void formatsTimesLikeJoblib() {
    assertThat(VerboseReporter.shortTime(2_500_000_000L)).isEqualTo("   2.5s");
    assertThat(VerboseReporter.shortTime(90_000_000_000L)).isEqualTo(" 1.5min");
  }

  @Test
  void lowVerbosityPrintsSparserAsBatchesGoOn() {
    // joblib's _verbosity_filter at verbose=1: s = 50, print when floor(sqrt(i/50)) changes
    int printed = 0;
    for (int i = 0; i < 1000; i++) {
      if (!VerboseReporter.filteredOut(i, 1)) {
        printed++;
      }
    }
    assertThat(printed).isBetween(3, 6);
    for (int i = 0; i < 100; i++) {
      assertThat(VerboseReporter.filteredOut(i, 11)).isFalse();
    }
  }

  @Test
  void printsUsingDoneAndFinishedLines() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    VerboseReporter r = new VerboseReporter(() -> out);
    CallInfo call = new CallInfo("id", "threads", 2, "f", 100);
    r.started(call);
    r.progressed(call, new Progress(4, 8, -1, 4, false, 1_000_000_000L));
    r.progressed(call, new Progress(6, 8, 8, 6, true, 1_500_000_000L));
    r.finished(call, new Progress(8, 8, 8, 8, true, 2_000_000_000L), null);
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "[Parallel(n_jobs=2)]: Using backend threads with 2 concurrent workers.",
        "[Parallel(n_jobs=2)]: Done   4 tasks      | elapsed:    1.0s",
        "[Parallel(n_jobs=2)]: Done 6 out of 8 | elapsed:    1.5s remaining:    0.5s",
        "[Parallel(n_jobs=2)]: Done 8 out of 8 | elapsed:    2.0s finished");
  }
}
