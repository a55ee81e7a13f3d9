package io.joblib4j;

import io.joblib4j.fn.Fn1;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A memoized function of 1 argument, made by {@link Memory#cache(Fn1)}: {@link #apply}
 * returns the cached result when there is one and computes and stores it otherwise.
 *
 * @param <A> the type of argument 1
 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface MemoizedFn1<A, R> extends Fn1<A, R>, Memoized {

  /**
   * Computes the result even if it is cached, stores it, and returns it with its metadata.
   *
   * @param a the first argument
   * @return the result and the metadata of the entry now stored
   */
  CallResult<R> call(A a);

  /**
   * Makes sure the result is stored (computing it if needed) and returns a reference to it without
   * loading it.
   *
   * @param a the first argument
   * @return a serializable reference to the stored result
   */
  MemorizedResult<R> callAndShelve(A a);

  /**
   * Whether a valid result for these arguments is stored (an invalid one is deleted, as joblib
   * does).
   *
   * @param a the first argument
   * @return whether a valid entry exists for these arguments
   */
  boolean checkCallInCache(A a);

  /**
   * Why a call with these arguments would miss the cache: whether its entry is stored, and if not
   * which part of its key (code version, captured values, an argument) differs from the closest
   * stored entry of this function. Computes and stores nothing.
   *
   * @param a the first argument
   * @return the explanation; its {@code toString()} is a sentence
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  MissExplanation explain(A a);

  @Override
  MemoizedFn1<A, R> ignore(int... positions);

  @Override
  MemoizedFn1<A, R> ignore(String... names);

  @Override
  MemoizedFn1<A, R> mmapMode(MmapMode mode);

  @Override
  MemoizedFn1<A, R> compress(Compress compress);

  @Override
  MemoizedFn1<A, R> verbose(int level);

  @Override
  MemoizedFn1<A, R> validation(CacheValidation validation);

  @Override
  MemoizedFn1<A, R> expiresAfter(Duration age);

  @Override
  MemoizedFn1<A, R> allow(Class<?>... classes);
}
