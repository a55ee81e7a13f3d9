package io.joblib4j;

import io.joblib4j.fn.Fn5;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A memoized function of 5 arguments, made by {@link Memory#cache(Fn5)}: {@link #apply}
 * returns the cached result when there is one and computes and stores it otherwise.
 *
 * @param <A> the type of argument 1
 * @param <B> the type of argument 2
 * @param <C> the type of argument 3
 * @param <D> the type of argument 4
 * @param <E> the type of argument 5
 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface MemoizedFn5<A, B, C, D, E, R> extends Fn5<A, B, C, D, E, R>, Memoized {

  /**
   * Computes the result even if it is cached, stores it, and returns it with its metadata.
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @return the result and the metadata of the entry now stored
   */
  CallResult<R> call(A a, B b, C c, D d, E e);

  /**
   * Makes sure the result is stored (computing it if needed) and returns a reference to it without
   * loading it.
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @return a serializable reference to the stored result
   */
  MemorizedResult<R> callAndShelve(A a, B b, C c, D d, E e);

  /**
   * Whether a valid result for these arguments is stored (an invalid one is deleted, as joblib
   * does).
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @return whether a valid entry exists for these arguments
   */
  boolean checkCallInCache(A a, B b, C c, D d, E e);

  /**
   * Why a call with these arguments would miss the cache: whether its entry is stored, and if not
   * which part of its key (code version, captured values, an argument) differs from the closest
   * stored entry of this function. Computes and stores nothing.
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @return the explanation; its {@code toString()} is a sentence
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  MissExplanation explain(A a, B b, C c, D d, E e);

  @Override
  MemoizedFn5<A, B, C, D, E, R> ignore(int... positions);

  @Override
  MemoizedFn5<A, B, C, D, E, R> ignore(String... names);

  @Override
  MemoizedFn5<A, B, C, D, E, R> mmapMode(MmapMode mode);

  @Override
  MemoizedFn5<A, B, C, D, E, R> compress(Compress compress);

  @Override
  MemoizedFn5<A, B, C, D, E, R> verbose(int level);

  @Override
  MemoizedFn5<A, B, C, D, E, R> validation(CacheValidation validation);

  @Override
  MemoizedFn5<A, B, C, D, E, R> expiresAfter(Duration age);

  @Override
  MemoizedFn5<A, B, C, D, E, R> allow(Class<?>... classes);
}
