package io.joblib4j.cli.internal;

import org.jline.terminal.spi.SystemStream;
import org.jline.terminal.spi.TerminalProvider;

/**
 * Whether standard error is a terminal: the progress bar goes there, so it shows only then (not
 * when stderr goes to a file or a pipe, whatever stdout is). JDK 17's {@code System.console()}
 * only tells about stdin and stdout; JLine (which progressbar brings) asks the system about stderr.
 */
final class Terminals {
  private Terminals() {}

  static boolean stderrIsTerminal() {
    try {
      return TerminalProvider.load("exec").isSystemStream(SystemStream.Error);
    } catch (java.io.IOException | RuntimeException | LinkageError e) {
      return false; // cannot tell: no bar
    }
  }
}
