package io.joblib4j.internal.persist.npy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real numpy, run as {@code python3}: tests that need it call {@link #require()}, which skips
 * them loudly (a JUnit assumption, and a line on standard error) where python3 or numpy is missing.
 */
final class Numpy {
  private static Boolean available;
  private static String version;

  private Numpy() {}

  /** Skips the calling test, saying why, unless python3 with numpy runs here. */
  static synchronized void require() {
    if (available == null) {
      try {
        Result r = run0("import numpy; print(numpy.__version__)");
        available = r.exit == 0;
        version = r.out.trim();
      } catch (IOException | InterruptedException e) {
        available = false;
        version = e.toString();
      }
      if (!available) {
        System.err.println("SKIPPED: the numpy interoperability tests need python3 with numpy on the PATH ("
            + version + ")");
      }
    }
    assumeTrue(available, "python3 with numpy is not available here: numpy interoperability tests skipped");
  }

  /** Runs {@code script} with {@code args} as {@code sys.argv[1:]}; fails the test unless it exits 0. */
  static String run(String script, Object... args) {
    require();
    try {
      Result r = run0(script, args);
      if (r.exit != 0) {
        throw new AssertionError("python3 failed (exit " + r.exit + "):\n" + r.out);
      }
      return r.out;
    } catch (IOException | InterruptedException e) {
      throw new AssertionError("python3 could not run: " + e, e);
    }
  }

  private record Result(int exit, String out) {}

  private static Result run0(String script, Object... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("python3", "-c", script));
    for (Object a : args) {
      cmd.add(a instanceof Path ? ((Path) a).toAbsolutePath().toString() : String.valueOf(a));
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("python3 did not finish in 120 s");
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }
}
