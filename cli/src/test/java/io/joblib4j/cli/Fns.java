package io.joblib4j.cli;

/** Functions the tests memoize. */
public final class Fns {
  private Fns() {}

  public static int square(int x) {
    return x * x;
  }

  public static String greet(String name, int times) {
    return ("hello " + name + " ").repeat(times);
  }

  public static double[] signal(int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = Math.sin(i);
    }
    return d;
  }
}
