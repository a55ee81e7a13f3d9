package io.joblib4j;

import io.joblib4j.fn.Fn6;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A memoized function of 6 arguments, made by {@link Memory#cache(Fn6)}: {@link #apply}
 * returns the cached result when there is one and computes and stores it otherwise.
 *
 * @param <A> the type of argument 1
 * @param <B> the type of argument 2
 * @param <C> the type of argument 3
 * @param <D> the type of argument 4
 * @param <E> the type of argument 5
 * @param <F> the type of argument 6
 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface MemoizedFn6<A, B, C, D, E, F, R> extends Fn6<A, B, C, D, E, F, R>, Memoized {

  /**
   * Computes the result even if it is cached, stores it, and returns it with its metadata.
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @param f the sixth argument
   * @return the result and the metadata of the entry now stored
   */
  CallResult<R> call(A a, B b, C c, D d, E e, F f);

  /**
   * Makes sure the result is stored (computing it if needed) and returns a reference to it without
   * loading it.
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @param f the sixth argument
   * @return a serializable reference to the stored result
   */
  MemorizedResult<R> callAndShelve(A a, B b, C c, D d, E e, F f);

  /**
   * Whether a valid result for these arguments is stored (an invalid one is deleted, as joblib
   * does).
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @param f the sixth argument
   * @return whether a valid entry exists for these arguments
   */
  boolean checkCallInCache(A a, B b, C c, D d, E e, F f);

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
   * @param f the sixth argument
   * @return the explanation; its {@code toString()} is a sentence
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  MissExplanation explain(A a, B b, C c, D d, E e, F f);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> ignore(int... positions);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> ignore(String... names);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> mmapMode(MmapMode mode);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> compress(Compress compress);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> verbose(int level);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> validation(CacheValidation validation);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> expiresAfter(Duration age);

  @Override
  MemoizedFn6<A, B, C, D, E, F, R> allow(Class<?>... classes);
}
