package io.joblib4j.cli.internal;

import io.joblib4j.cli.Main;
import io.joblib4j.spi.support.IoCauses;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;

/** Runs a picocli command with joblib4j's exit codes and one-line error messages. */
public final class Cli {
  private Cli() {}

  public static int run(Object command, String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
    boolean progress = err == System.err && env.get("JOBLIB4J_NO_PROGRESS") == null;
    Context.set(new Context(out, err, env, progress));
    try {
      CommandLine cl = new CommandLine(command);
      cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
      cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
      cl.setCaseInsensitiveEnumValuesAllowed(true);
      cl.setExitCodeExceptionMapper(Cli::exitCode);
      cl.setParameterExceptionHandler((e, a) -> {
        CommandLine c = e.getCommandLine();
        c.getErr().println("joblib4j: " + e.getMessage());
        c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
        c.getErr().flush();
        return Main.USAGE;
      });
      cl.setExecutionExceptionHandler((e, c, parsed) -> {
        c.getErr().println("joblib4j: " + message(e));
        c.getErr().flush();
        return exitCode(e);
      });
      return cl.execute(args);
    } finally {
      Context.set(null);
    }
  }

  static int exitCode(Throwable e) {
    if (e instanceof CliException c) {
      return c.exitCode();
    }
    if (e instanceof IOException || e instanceof UncheckedIOException) {
      return Main.UNREACHABLE;
    }
    if (e instanceof IllegalArgumentException || e instanceof CommandLine.ParameterException) {
      return Main.USAGE;
    }
    return Main.UNREACHABLE;
  }

  static String message(Throwable e) {
    if (e instanceof CliException) {
      return e.getMessage();
    }
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      m = e.getClass().getName();
    }
    Throwable cause = e.getCause();
    if (cause != null && cause.getMessage() != null && !m.contains(cause.getMessage())) {
      m += ": " + cause.getMessage();
    }
    if (IoCauses.accessDenied(e) && !m.toLowerCase(java.util.Locale.ROOT).contains("permission denied")) {
      m += ": permission denied"; // a local refusal's message is only the path
    }
    return m;
  }
}
