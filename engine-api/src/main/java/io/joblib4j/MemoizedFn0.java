package io.joblib4j;

import io.joblib4j.fn.Fn0;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A memoized function of 0 arguments, made by {@link Memory#cache(Fn0)}: {@link #apply}
 * returns the cached result when there is one and computes and stores it otherwise.
 *

 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface MemoizedFn0<R> extends Fn0<R>, Memoized {

  /**
   * Computes the result even if it is cached, stores it, and returns it with its metadata.
   *
   * @return the result and the metadata of the entry now stored
   */
  CallResult<R> call();

  /**
   * Makes sure the result is stored (computing it if needed) and returns a reference to it without
   * loading it.
   *
   * @return a serializable reference to the stored result
   */
  MemorizedResult<R> callAndShelve();

  /**
   * Whether a valid result for these arguments is stored (an invalid one is deleted, as joblib
   * does).
   *
   * @return whether a valid entry exists for these arguments
   */
  boolean checkCallInCache();

  /**
   * Why a call with these arguments would miss the cache: whether its entry is stored, and if not
   * which part of its key (code version, captured values, an argument) differs from the closest
   * stored entry of this function. Computes and stores nothing.
   *
   * @return the explanation; its {@code toString()} is a sentence
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  MissExplanation explain();

  @Override
  MemoizedFn0<R> ignore(int... positions);

  @Override
  MemoizedFn0<R> ignore(String... names);

  @Override
  MemoizedFn0<R> mmapMode(MmapMode mode);

  @Override
  MemoizedFn0<R> compress(Compress compress);

  @Override
  MemoizedFn0<R> verbose(int level);

  @Override
  MemoizedFn0<R> validation(CacheValidation validation);

  @Override
  MemoizedFn0<R> expiresAfter(Duration age);

  @Override
  MemoizedFn0<R> allow(Class<?>... classes);
}
