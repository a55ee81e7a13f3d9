package io.joblib4j.internal.parallel;

import io.joblib4j.ResultIterator;
import java.lang.ref.Cleaner;
import java.util.NoSuchElementException;

/**
 * The caller's view of a call's results. It holds the call's state but the state never points
 * back at it, so when the caller drops an unfinished iterator the {@link Cleaner} can abandon the
 * call and free its {@code Parallel}.
 */
final class CallResults<R> implements ResultIterator<R> {
  private static final Cleaner CLEANER = Cleaner.create(r -> {
    Thread t = new Thread(r, "joblib4j-result-cleaner");
    t.setDaemon(true);
    return t;
  });

  /** What produces batches of results: a running parallel call or a sequential run. */
  interface Producer {
    /** The next batch of results, or null at the end; throws the call's failure. */
    Object[] nextResults();

    /** The caller has read everything (or got the failure). */
    void finish();

    /** The caller gave up before the end. */
    void abandon();
  }

  private final Producer producer;
  private final Cleaner.Cleanable cleanable;
  private Object[] buffer;
  private int position;
  private boolean done;

  CallResults(Producer producer) {
    this.producer = producer;
    this.cleanable = CLEANER.register(this, new Abandon(producer));
  }

  @Override
  public boolean hasNext() {
    while (!done && (buffer == null || position == buffer.length)) {
      Object[] next;
      try {
        next = producer.nextResults();
      } catch (Throwable e) {
        end();
        throw e;
      }
      if (next == null) {
        end();
      } else {
        buffer = next;
        position = 0;
      }
    }
    return !done;
  }

  @Override
  @SuppressWarnings("unchecked")
  public R next() {
    if (!hasNext()) {
      throw new NoSuchElementException("no more results");
    }
    R r = (R) buffer[position];
    buffer[position++] = null;
    return r;
  }

  @Override
  public void close() {
    if (!done) {
      done = true;
      buffer = null;
      producer.abandon();
      cleanable.clean();
    }
  }

  private void end() {
    done = true;
    buffer = null;
    producer.finish();
    cleanable.clean();
  }

  /** The cleanup action: must not reference the iterator, or it would never become unreachable. */
  private record Abandon(Producer producer) implements Runnable {
    @Override
    public void run() {
      producer.abandon();
    }
  }
}
