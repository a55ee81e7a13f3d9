package io.joblib4j.internal.parallel;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The thread-scoped stack of Parallel settings behind {@code ParallelConfig}: each scope layers
 * its values over the one below, and closing it restores the previous values exactly. Scopes
 * must close in reverse order of opening (try-with-resources does that).
 */
public final class ConfigStack {
  private static final ThreadLocal<Deque<Entry>> STACK = ThreadLocal.withInitial(ArrayDeque::new);

  private ConfigStack() {}

  /** The effective settings of the current thread: every open scope merged, innermost first. */
  public static ConfigValues current() {
    Entry top = STACK.get().peek();
    return top == null ? ConfigValues.EMPTY : top.merged;
  }

  /** Opens a scope with {@code layer} over the current settings. */
  public static Scope push(ConfigValues layer) {
    Deque<Entry> stack = STACK.get();
    Entry entry = new Entry(layer.over(current()));
    stack.push(entry);
    return new Scope(entry);
  }

  /** An open scope; closing restores the settings that were current when it opened. */
  public static final class Scope implements AutoCloseable {
    private final Entry entry;
    private final Thread owner = Thread.currentThread();
    private boolean closed;

    private Scope(Entry entry) {
      this.entry = entry;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      if (Thread.currentThread() != owner) {
        throw new IllegalStateException(
            "a ParallelConfig scope must be closed by the thread that opened it (" + owner.getName() + ")");
      }
      Deque<Entry> stack = STACK.get();
      if (stack.peek() != entry) {
        throw new IllegalStateException(
            "ParallelConfig scopes must be closed in reverse order of opening; close the inner scope first");
      }
      stack.pop();
      closed = true;
      if (stack.isEmpty()) {
        STACK.remove();
      }
    }
  }

  private record Entry(ConfigValues merged) {}
}
