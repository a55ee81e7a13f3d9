package io.joblib4j.benchmarks.firstcall;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link FirstCallMain} as a fresh JVM {@code shots} times on a class path and prints each
 * shot's first-call time, then the mean, median, minimum and maximum. The first shots may record
 * the workers' class-data-sharing archive; {@code warmup} shots are run first and not counted.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.joblib4j.benchmarks.firstcall.FirstCallHarness \
 *     &lt;shots&gt; &lt;warmup&gt; &lt;class path for the child&gt; [JVM options for the child...]
 * </pre>
 *
 * <p>{@code -Djoblib4j.processes.cds=false} as a child option gives the baseline without the
 * workers' class-data-sharing archive; {@code -Djoblib4j.processes.keepWarm=60} keeps each shot's
 * idle workers for the next shot to adopt (the warm-up shots start them).
 */
public final class FirstCallHarness {
  private FirstCallHarness() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    int shots = Integer.parseInt(args[0]);
    int warmup = Integer.parseInt(args[1]);
    String classpath = args[2];
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Double> firsts = new ArrayList<>();
    List<Double> seconds = new ArrayList<>();
    for (int i = 0; i < warmup + shots; i++) {
      List<String> command = new ArrayList<>(List.of(java));
      command.addAll(Arrays.asList(args).subList(3, args.length));
      command.addAll(List.of("-cp", classpath, FirstCallMain.class.getName()));
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("shot " + i + " failed:\n" + out);
      }
      double first = value(out, "FIRST_CALL_MS");
      double second = value(out, "SECOND_CALL_MS");
      System.out.printf("shot %d%s: first call %.1f ms, second %.1f ms%n", i, i < warmup ? " (warm-up)" : "",
          first, second);
      if (i >= warmup) {
        firsts.add(first);
        seconds.add(second);
      }
    }
    System.out.println("first call: " + summary(firsts));
    System.out.println("second call: " + summary(seconds));
  }

  private static double value(String out, String name) {
    for (String line : out.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    throw new IllegalStateException("no " + name + " in:\n" + out);
  }

  private static String summary(List<Double> v) {
    double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double mean = Arrays.stream(s).average().orElse(Double.NaN);
    double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    return String.format("mean %.1f ms, median %.1f ms, min %.1f, max %.1f (%d shots)", mean, median, s[0],
        s[s.length - 1], s.length);
  }
}
