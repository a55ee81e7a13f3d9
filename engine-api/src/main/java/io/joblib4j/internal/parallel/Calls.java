package io.joblib4j.internal.parallel;

import io.joblib4j.Delayed;
import io.joblib4j.ResultIterator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;

/** Starts calls: the one entry point {@code Parallel} uses, sequential or parallel alike. */
public final class Calls {
  private Calls() {}

  /** Starts a call over {@code tasks}; results in input order when {@code ordered}. */
  public static <R> ResultIterator<R> start(CallPlan plan, Spliterator<? extends Delayed<?>> tasks,
      boolean ordered, Runnable onFinish) {
    return start(plan, TaskSource.of(tasks), ordered, onFinish);
  }

  /** Starts a call over {@code tasks}; results in input order when {@code ordered}. */
  public static <R> ResultIterator<R> start(CallPlan plan, Iterator<? extends Delayed<?>> tasks,
      boolean ordered, Runnable onFinish) {
    return start(plan, TaskSource.of(tasks), ordered, onFinish);
  }

  private static <R> ResultIterator<R> start(CallPlan plan, TaskSource source, boolean ordered,
      Runnable onFinish) {
    CallResults.Producer producer;
    if (plan.sequential()) {
      producer = new SequentialRun(plan, source, onFinish);
    } else {
      Delayed<?> first;
      try {
        first = source.peek();
      } catch (Throwable e) {
        onFinish.run();
        throw e;
      }
      if (first == null) {
        onFinish.run();
        return new CallResults<>(Empty.INSTANCE);
      }
      try {
        producer = ParallelCall.start(plan, source, ordered, onFinish);
      } catch (Throwable e) {
        onFinish.run();
        throw e;
      }
    }
    return new CallResults<>(producer);
  }

  /** Drains {@code results} into a new list. */
  public static <R> List<R> collect(ResultIterator<R> results) {
    List<R> out = new ArrayList<>();
    try (results) {
      while (results.hasNext()) {
        out.add(results.next());
      }
    }
    return out;
  }

  private enum Empty implements CallResults.Producer {
    INSTANCE;

    @Override
    public Object[] nextResults() {
      return null;
    }

    @Override
    public void finish() {}

    @Override
    public void abandon() {}
  }
}
