package io.joblib4j.internal.hash;

import java.util.ArrayList;
import java.util.List;

/**
 * A value that cannot be hashed, with the path from the root value to it ({@code .holder .items
 * [1]}), what is wrong and what to do. Callers that know more about the root (Memory knows a
 * captured value is "captured arg 0 (this)") relabel the path's first step and add their advice.
 */
public final class UnhashableValueException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  /** Paths longer than this are shown by their first and last steps. */
  private static final int SHOWN = 12;

  private final String problem;
  private final List<String> path = new ArrayList<>();
  private final List<String> fixes = new ArrayList<>();

  UnhashableValueException(String problem, String fix, Throwable cause) {
    super(problem, cause);
    this.problem = problem;
    this.fixes.add(fix);
  }

  /** Records that the value sits at {@code step} inside its parent (called while unwinding). */
  UnhashableValueException under(String step) {
    path.add(0, step);
    return this;
  }

  /** The steps from the root to the value, e.g. {@code [.holder, .items, [1]]}. */
  public List<String> path() {
    return List.copyOf(path);
  }

  /** Replaces the first step (the root's own element, such as {@code [0]}) with {@code label}. */
  public UnhashableValueException relabelFirst(String label) {
    if (path.isEmpty()) {
      path.add(label);
    } else {
      path.set(0, label);
    }
    return this;
  }

  /** Puts {@code label} before the path. */
  public UnhashableValueException within(String label) {
    path.add(0, label);
    return this;
  }

  /** Adds advice that only the caller can give, after the generic advice. */
  public UnhashableValueException advise(String fix) {
    fixes.add(fix);
    return this;
  }

  @Override
  public String getMessage() {
    StringBuilder sb = new StringBuilder("cannot hash ");
    sb.append(path.isEmpty() ? "the value" : renderedPath());
    sb.append(": ").append(problem).append('.');
    for (String f : fixes) {
      sb.append(' ').append(f);
    }
    return sb.toString();
  }

  private String renderedPath() {
    if (path.size() <= SHOWN) {
      return String.join(" ", path);
    }
    return String.join(" ", path.subList(0, SHOWN - 4)) + " ... (" + (path.size() - SHOWN) + " more) ... "
        + String.join(" ", path.subList(path.size() - 4, path.size()));
  }
}
