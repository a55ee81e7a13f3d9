package io.joblib4j;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * {@link Joblib#hash} (or a memoized function computing its call key) met a value it cannot hash:
 * an object whose fields the JDK does not open (a {@code Thread}, a lock, a stream), a lambda that
 * is not serializable, a value nested too deeply. The message names the path from the root value
 * to it ({@code argument 0 (model) .holder .items [1]}), what is wrong and what to do; {@link #path()}
 * gives the same path as a list.
 *
 * <pre>{@code
 * try {
 *   Joblib.hash(List.of("fit", new Thread()));
 * } catch (UnhashableValueException e) {
 *   e.path();        // [[1]]
 *   e.getMessage();  // cannot hash [1]: it is a java.lang.Thread, whose fields ...
 * }
 * }</pre>
 *
 * <p>Code that hashes on behalf of a caller (Memory, a backend) may add what only it knows while the
 * exception passes through: {@link #within(String)}, {@link #relabelFirst(String)} and {@link
 * #advise(String)}.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class UnhashableValueException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  /** Paths longer than this are shown by their first and last steps. */
  private static final int SHOWN = 12;

  /** What is wrong with the value. */
  private final String problem;
  /** The steps from the root value to it, added while the exception unwinds. */
  private final ArrayList<String> path = new ArrayList<>();
  /** What to do about it, the innermost advice first. */
  private final ArrayList<String> fixes = new ArrayList<>();

  /**
   * A value that cannot be hashed, found at the root; callers add the path while unwinding.
   *
   * @param problem what is wrong with the value, e.g. {@code "it is a java.lang.Thread, ..."}
   * @param fix what to do about it
   * @param cause the underlying failure, or {@code null}
   */
  public UnhashableValueException(String problem, String fix, Throwable cause) {
    super(problem, cause);
    this.problem = problem;
    this.fixes.add(fix);
  }

  /**
   * The steps from the root value to the value that cannot be hashed, e.g. {@code [.holder, .items,
   * [1]]}.
   *
   * @return an unmodifiable copy of the path, empty when the root itself cannot be hashed
   */
  public List<String> path() {
    return List.copyOf(path);
  }

  /**
   * What is wrong with the value, without the path and the advice.
   *
   * @return the problem, e.g. {@code "it is a java.lang.Thread, whose fields ..."}
   */
  public String problem() {
    return problem;
  }

  /**
   * Puts {@code step} before the path: the value sits at {@code step} inside its parent.
   *
   * @param step the step, such as {@code ".field"}, {@code "[3]"} or {@code "argument 0"}
   * @return this exception
   */
  public UnhashableValueException within(String step) {
    path.add(0, step);
    return this;
  }

  /**
   * Replaces the first step (the root's own element, such as {@code [0]}) with {@code label}, or
   * sets it when the path is empty.
   *
   * @param label a name the caller knows for that element, e.g. {@code "captured arg 0 (this)"}
   * @return this exception
   */
  public UnhashableValueException relabelFirst(String label) {
    if (path.isEmpty()) {
      path.add(label);
    } else {
      path.set(0, label);
    }
    return this;
  }

  /**
   * Adds advice that only the caller can give, after the generic advice.
   *
   * @param fix one more sentence saying what to do
   * @return this exception
   */
  public UnhashableValueException advise(String fix) {
    fixes.add(fix);
    return this;
  }

  /**
   * The path, the problem and the advice.
   *
   * @return {@code "cannot hash <path>: <problem>. <advice>"}
   */
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
