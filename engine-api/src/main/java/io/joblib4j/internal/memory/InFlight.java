package io.joblib4j.internal.memory;

import io.joblib4j.internal.Sneaky;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Single flight within a JVM: of the threads that miss the same entry at the same time, one (the
 * leader) computes it and the others wait for that computation and take its outcome — so a key is
 * computed once per JVM however many threads race for it.
 *
 * <p>A thread that joins a computation in flight gets that computation's outcome, as if it had
 * made the call at the same moment: the leader's result (which the caller turns into a load of the
 * stored entry, so that each thread gets its own copy), or the leader's exception itself. Exceptions
 * are not cached: a call made after the computation ended computes again. A thread that asks again
 * for the entry it is computing (a function calling itself) does not wait for itself. A joiner
 * interrupted while waiting stops waiting with a {@link CancellationException}, its interrupt
 * status set.
 */
final class InFlight {
  private static final ConcurrentHashMap<String, Flight<?>> FLIGHTS = new ConcurrentHashMap<>();

  private InFlight() {}

  /** A computation in flight, and who runs it. */
  private static final class Flight<T> {
    final Thread leader = Thread.currentThread();
    final CompletableFuture<T> outcome = new CompletableFuture<>();
  }

  /**
   * Runs {@code leader} for {@code id} unless another thread of this JVM is running it now, in which
   * case this thread waits for that run and returns {@code joiner} applied to its result (or throws
   * its exception).
   */
  @SuppressWarnings("unchecked")
  static <T> T once(String id, Supplier<T> leader, Function<T, T> joiner) {
    Flight<T> mine = new Flight<>();
    Flight<T> running = (Flight<T>) FLIGHTS.putIfAbsent(id, mine);
    if (running != null) {
      if (running.leader == Thread.currentThread()) {
        return leader.get(); // the function asks for itself: waiting would wait forever
      }
      return joiner.apply(await(running));
    }
    try {
      T result = leader.get();
      mine.outcome.complete(result);
      return result;
    } catch (Throwable t) {
      mine.outcome.completeExceptionally(t);
      throw Sneaky.rethrow(t);
    } finally {
      FLIGHTS.remove(id, mine);
    }
  }

  /** How many computations are in flight in this JVM (tests). */
  static int size() {
    return FLIGHTS.size();
  }

  private static <T> T await(Flight<T> running) {
    try {
      return running.outcome.get();
    } catch (ExecutionException e) {
      throw Sneaky.rethrow(e.getCause()); // the leader's exception, as the leader got it
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      CancellationException c = new CancellationException("interrupted while waiting for another thread computing"
          + " the same cached result");
      c.initCause(e);
      throw c;
    }
  }
}
