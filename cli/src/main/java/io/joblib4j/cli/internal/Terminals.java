package io.joblib4j.cli.internal;

import java.io.Console;
import java.lang.reflect.Method;

/** Whether standard output is a terminal (progress bars only there). */
final class Terminals {
  private Terminals() {}

  static boolean stdoutIsTerminal() {
    if (System.getenv("JOBLIB4J_NO_PROGRESS") != null) {
      return false;
    }
    Console console = System.console();
    if (console == null) {
      return false;
    }
    // Java 22+ returns a console even when redirected; isTerminal() then says whether it is one
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }
}
