package io.joblib4j.internal.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.ProgressListener.CallInfo;
import io.joblib4j.ProgressListener.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressBarListenerTest {
  @Test
  void drawsABarThatReachesTheTotal() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBarListener bar = new ProgressBarListener(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    CallInfo call = new CallInfo("id", "threads", 2, "Scorer.score", 1);
    bar.started(call);
    bar.progressed(call, new Progress(5, 10, 10, 5, false, 1_000_000L));
    bar.finished(call, new Progress(10, 10, 10, 10, true, 2_000_000L), null);
    String drawn = bytes.toString(StandardCharsets.UTF_8);
    assertThat(drawn).contains("Scorer.score [threads x2]").contains("100%").contains("10/10");
  }

  @Test
  void isOnlyUsedOnATerminal() {
    // test JVMs have no console: the joblib-style lines are used instead
    assertThat(ConsoleBarReporter.usable(5)).isFalse();
    assertThat(ConsoleBarReporter.usable(0)).isFalse();
  }
}
