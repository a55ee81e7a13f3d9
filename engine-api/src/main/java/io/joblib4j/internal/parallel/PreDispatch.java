package io.joblib4j.internal.parallel;

import java.util.Locale;

/**
 * joblib's {@code pre_dispatch}: {@code "all"}, a number, or an arithmetic expression of {@code
 * n_jobs} such as {@code "2*n_jobs"} or {@code "3 * n_jobs + 1"}. Parsed by a small grammar
 * (numbers, {@code n_jobs}, {@code + - * / // % **}, unary minus, parentheses) — never evaluated
 * as code. Like joblib, expressions over 30 characters and intermediate values above 1e6 are
 * refused. The result counts tasks, as joblib's code does.
 */
final class PreDispatch {
  static final long ALL = Long.MAX_VALUE;
  private static final int MAX_LENGTH = 30;
  private static final double MAX_VALUE = 1e6;

  private final String text;
  private final double nJobs;
  private int pos;

  private PreDispatch(String text, double nJobs) {
    this.text = text;
    this.nJobs = nJobs;
  }

  /** Fails now, with the reason, if {@code expression} could never be evaluated. */
  static void validate(String expression) {
    tasks(expression, 1);
  }

  /** The number of tasks to dispatch up front for {@code nJobs} workers; {@link #ALL} for "all". */
  static long tasks(String expression, int nJobs) {
    String s = expression.trim().toLowerCase(Locale.ROOT);
    if (s.equals("all")) {
      return ALL;
    }
    if (s.length() > MAX_LENGTH) {
      throw bad(expression, "longer than " + MAX_LENGTH + " characters");
    }
    PreDispatch p = new PreDispatch(s.replace("njobs", "n_jobs"), nJobs);
    double v = p.sum();
    p.skipSpaces();
    if (p.pos != p.text.length()) {
      throw bad(expression, "unexpected \"" + p.text.substring(p.pos) + "\"");
    }
    long n = (long) v;
    if (n < 1) {
      throw bad(expression, "it evaluates to " + v + " tasks; it must be at least 1");
    }
    return n;
  }

  private double sum() {
    double v = product();
    while (true) {
      if (eat("+")) {
        v = check(v + product());
      } else if (eat("-")) {
        v = check(v - product());
      } else {
        return v;
      }
    }
  }

  private double product() {
    double v = power();
    while (true) {
      if (eat("//")) {
        v = check(Math.floor(v / nonZero(power())));
      } else if (eat("*")) {
        v = check(v * power());
      } else if (eat("/")) {
        v = check(v / nonZero(power()));
      } else if (eat("%")) {
        double d = nonZero(power());
        v = check(v - d * Math.floor(v / d));
      } else {
        return v;
      }
    }
  }

  private double power() {
    double base = unary();
    if (eat("**")) {
      return check(Math.pow(base, power()));
    }
    return base;
  }

  private double unary() {
    if (eat("-")) {
      return -unary();
    }
    if (eat("+")) {
      return unary();
    }
    return atom();
  }

  private double atom() {
    skipSpaces();
    if (eat("(")) {
      double v = sum();
      if (!eat(")")) {
        throw bad(text, "missing \")\"");
      }
      return v;
    }
    if (text.startsWith("n_jobs", pos)) {
      pos += "n_jobs".length();
      return nJobs;
    }
    int start = pos;
    while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
      pos++;
    }
    if (start == pos) {
      throw bad(text, pos < text.length() ? "unexpected \"" + text.charAt(pos) + "\"" : "it ends too early");
    }
    try {
      return check(Double.parseDouble(text.substring(start, pos)));
    } catch (NumberFormatException e) {
      throw bad(text, "\"" + text.substring(start, pos) + "\" is not a number");
    }
  }

  private boolean eat(String token) {
    skipSpaces();
    if (text.startsWith(token, pos)) {
      // "*" must not swallow the first half of "**"
      if (token.equals("*") && text.startsWith("**", pos)) {
        return false;
      }
      if (token.equals("/") && text.startsWith("//", pos)) {
        return false;
      }
      pos += token.length();
      return true;
    }
    return false;
  }

  private void skipSpaces() {
    while (pos < text.length() && text.charAt(pos) == ' ') {
      pos++;
    }
  }

  private double nonZero(double v) {
    if (v == 0) {
      throw bad(text, "division by zero");
    }
    return v;
  }

  private double check(double v) {
    if (Double.isNaN(v) || Math.abs(v) > MAX_VALUE) {
      throw bad(text, "a value exceeds " + (long) MAX_VALUE);
    }
    return v;
  }

  private static IllegalArgumentException bad(String expression, String why) {
    return new IllegalArgumentException("invalid preDispatch \"" + expression + "\": " + why
        + "; write \"all\", a number of tasks, or an expression such as \"2*n_jobs\"");
  }
}
