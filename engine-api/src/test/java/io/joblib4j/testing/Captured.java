package io.joblib4j.testing;

import io.joblib4j.spi.support.Warnings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** Captures what joblib4j tells the user: warnings, and lines printed on stderr or stdout. */
public final class Captured {
  private Captured() {}

  /** The warnings given while {@code body} ran. */
  public static List<String> warnings(Runnable body) {
    List<String> seen = new CopyOnWriteArrayList<>();
    Runnable remove = Warnings.addHook((source, message) -> seen.add(message));
    try {
      body.run();
    } finally {
      remove.run();
    }
    return seen;
  }

  /** What {@code body} printed on stderr. */
  public static String stderr(Runnable body) {
    return capture(body, () -> System.err, s -> System.setErr(s));
  }

  /** What {@code body} printed on stdout. */
  public static String stdout(Runnable body) {
    return capture(body, () -> System.out, s -> System.setOut(s));
  }

  private static String capture(Runnable body, Supplier<PrintStream> current,
      java.util.function.Consumer<PrintStream> set) {
    PrintStream old = current.get();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    set.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      body.run();
    } finally {
      set.accept(old);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
