package io.joblib4j.internal.parallel;

import io.joblib4j.Delayed;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Spliterator;

/**
 * The caller's tasks, taken lazily and by one thread at a time: the caller's thread for the first
 * slice, then whichever thread completes a batch. An exception thrown by the caller's iterator is
 * kept and rethrown to the caller as the call's failure.
 */
final class TaskSource {
  private final Iterator<? extends Delayed<?>> tasks;
  private final long knownSize;
  private Delayed<?> lookahead;
  private long taken;
  private boolean exhausted;

  private TaskSource(Iterator<? extends Delayed<?>> tasks, long knownSize) {
    this.tasks = tasks;
    this.knownSize = knownSize;
  }

  static TaskSource of(Spliterator<? extends Delayed<?>> tasks) {
    return new TaskSource(java.util.Spliterators.iterator(tasks), tasks.getExactSizeIfKnown());
  }

  static TaskSource of(Iterator<? extends Delayed<?>> tasks) {
    return new TaskSource(tasks, -1);
  }

  /** The first task without consuming it, or null if there is none. */
  synchronized Delayed<?> peek() {
    if (lookahead == null && !exhausted) {
      lookahead = nextOrNull();
    }
    return lookahead;
  }

  /** Up to {@code max} more tasks; fewer (maybe none) when the input ends. */
  synchronized List<Delayed<?>> take(long max) {
    int capacity = (int) Math.min(max, 1 << 16);
    List<Delayed<?>> out = new ArrayList<>(capacity);
    if (lookahead != null && max > 0) {
      out.add(lookahead);
      lookahead = null;
    }
    while (out.size() < max && !exhausted) {
      Delayed<?> d = nextOrNull();
      if (d != null) {
        out.add(d);
      }
    }
    taken += out.size();
    return out;
  }

  private Delayed<?> nextOrNull() {
    if (!tasks.hasNext()) {
      exhausted = true;
      return null;
    }
    return Objects.requireNonNull(tasks.next(), "the task input yielded a null task");
  }

  /** Whether every task has been taken. */
  synchronized boolean exhausted() {
    return exhausted && lookahead == null;
  }

  /** The number of tasks if known in advance (a sized stream or collection), else -1. */
  long knownSize() {
    return knownSize;
  }

  /** How many tasks have been taken. */
  synchronized long taken() {
    return taken;
  }
}
