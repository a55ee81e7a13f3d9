package io.joblib4j.internal.memory;

import io.joblib4j.CacheValidation;
import io.joblib4j.CallResult;
import io.joblib4j.Compress;
import io.joblib4j.MemoizedFn0;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.MemoizedFn2;
import io.joblib4j.MemoizedFn3;
import io.joblib4j.MemoizedFn4;
import io.joblib4j.MemoizedFn5;
import io.joblib4j.MemoizedFn6;
import io.joblib4j.MemorizedResult;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.internal.fn.WrapsFunction;
import io.joblib4j.internal.hash.HashedAs;
import java.io.Serial;
import java.time.Duration;

/**
 * The one implementation behind every {@code MemoizedFnN}: it implements all seven arities at
 * once, so the cache protocol ({@link CachedFunction}) is written once and no arity has its own
 * copy. {@link Memory#cache} hands it out typed as the arity of the function it wraps; calling it
 * with another arity (only possible through an unchecked cast) is refused.
 */
final class MemoizedImpl implements HashedAs, WrapsFunction, MemoizedFn0<Object>, MemoizedFn1<Object, Object>, MemoizedFn2<Object, Object, Object>, MemoizedFn3<Object, Object, Object, Object>, MemoizedFn4<Object, Object, Object, Object, Object>, MemoizedFn5<Object, Object, Object, Object, Object, Object>, MemoizedFn6<Object, Object, Object, Object, Object, Object, Object> {
  @Serial private static final long serialVersionUID = 1L;

  private final Memory memory;
  private final CachedFunction core;

  MemoizedImpl(Memory memory, CachedFunction core) {
    this.memory = memory;
    this.core = core;
  }

  /**
   * The function this memoizes: for unwrapping {@code cache(cache(f))}, and the name tasks, progress
   * bars and the Spark UI give a memoized function.
   */
  @Override
  public Object wrappedFunction() {
    return core.fn;
  }

  /**
   * A memoized function kept in a field of an object some function captured is hashed as the
   * function it memoizes: its store, options and caches do not change what it computes.
   */
  @Override
  public Object hashedAs() {
    return core.fn;
  }

  private Object[] args(int arity, Object[] args) {
    if (arity != core.arity) {
      throw new IllegalStateException(core.identity().name() + " takes " + core.arity + " arguments, not " + arity);
    }
    return args;
  }

  @Override
  public Object invoke() {
    return core.apply(args(0, new Object[] {}));
  }

  @Override
  public CallResult<Object> call() {
    return core.call(args(0, new Object[] {}));
  }

  @Override
  public MemorizedResult<Object> callAndShelve() {
    return core.callAndShelve(args(0, new Object[] {}));
  }

  @Override
  public boolean checkCallInCache() {
    return core.checkCallInCache(args(0, new Object[] {}));
  }

  @Override
  public io.joblib4j.MissExplanation explain() {
    return core.explain(args(0, new Object[] {}));
  }

  @Override
  public Object invoke(Object a0) {
    return core.apply(args(1, new Object[] {a0}));
  }

  @Override
  public CallResult<Object> call(Object a0) {
    return core.call(args(1, new Object[] {a0}));
  }

  @Override
  public MemorizedResult<Object> callAndShelve(Object a0) {
    return core.callAndShelve(args(1, new Object[] {a0}));
  }

  @Override
  public boolean checkCallInCache(Object a0) {
    return core.checkCallInCache(args(1, new Object[] {a0}));
  }

  @Override
  public io.joblib4j.MissExplanation explain(Object a0) {
    return core.explain(args(1, new Object[] {a0}));
  }

  @Override
  public Object invoke(Object a0, Object a1) {
    return core.apply(args(2, new Object[] {a0, a1}));
  }

  @Override
  public CallResult<Object> call(Object a0, Object a1) {
    return core.call(args(2, new Object[] {a0, a1}));
  }

  @Override
  public MemorizedResult<Object> callAndShelve(Object a0, Object a1) {
    return core.callAndShelve(args(2, new Object[] {a0, a1}));
  }

  @Override
  public boolean checkCallInCache(Object a0, Object a1) {
    return core.checkCallInCache(args(2, new Object[] {a0, a1}));
  }

  @Override
  public io.joblib4j.MissExplanation explain(Object a0, Object a1) {
    return core.explain(args(2, new Object[] {a0, a1}));
  }

  @Override
  public Object invoke(Object a0, Object a1, Object a2) {
    return core.apply(args(3, new Object[] {a0, a1, a2}));
  }

  @Override
  public CallResult<Object> call(Object a0, Object a1, Object a2) {
    return core.call(args(3, new Object[] {a0, a1, a2}));
  }

  @Override
  public MemorizedResult<Object> callAndShelve(Object a0, Object a1, Object a2) {
    return core.callAndShelve(args(3, new Object[] {a0, a1, a2}));
  }

  @Override
  public boolean checkCallInCache(Object a0, Object a1, Object a2) {
    return core.checkCallInCache(args(3, new Object[] {a0, a1, a2}));
  }

  @Override
  public io.joblib4j.MissExplanation explain(Object a0, Object a1, Object a2) {
    return core.explain(args(3, new Object[] {a0, a1, a2}));
  }

  @Override
  public Object invoke(Object a0, Object a1, Object a2, Object a3) {
    return core.apply(args(4, new Object[] {a0, a1, a2, a3}));
  }

  @Override
  public CallResult<Object> call(Object a0, Object a1, Object a2, Object a3) {
    return core.call(args(4, new Object[] {a0, a1, a2, a3}));
  }

  @Override
  public MemorizedResult<Object> callAndShelve(Object a0, Object a1, Object a2, Object a3) {
    return core.callAndShelve(args(4, new Object[] {a0, a1, a2, a3}));
  }

  @Override
  public boolean checkCallInCache(Object a0, Object a1, Object a2, Object a3) {
    return core.checkCallInCache(args(4, new Object[] {a0, a1, a2, a3}));
  }

  @Override
  public io.joblib4j.MissExplanation explain(Object a0, Object a1, Object a2, Object a3) {
    return core.explain(args(4, new Object[] {a0, a1, a2, a3}));
  }

  @Override
  public Object invoke(Object a0, Object a1, Object a2, Object a3, Object a4) {
    return core.apply(args(5, new Object[] {a0, a1, a2, a3, a4}));
  }

  @Override
  public CallResult<Object> call(Object a0, Object a1, Object a2, Object a3, Object a4) {
    return core.call(args(5, new Object[] {a0, a1, a2, a3, a4}));
  }

  @Override
  public MemorizedResult<Object> callAndShelve(Object a0, Object a1, Object a2, Object a3, Object a4) {
    return core.callAndShelve(args(5, new Object[] {a0, a1, a2, a3, a4}));
  }

  @Override
  public boolean checkCallInCache(Object a0, Object a1, Object a2, Object a3, Object a4) {
    return core.checkCallInCache(args(5, new Object[] {a0, a1, a2, a3, a4}));
  }

  @Override
  public io.joblib4j.MissExplanation explain(Object a0, Object a1, Object a2, Object a3, Object a4) {
    return core.explain(args(5, new Object[] {a0, a1, a2, a3, a4}));
  }

  @Override
  public Object invoke(Object a0, Object a1, Object a2, Object a3, Object a4, Object a5) {
    return core.apply(args(6, new Object[] {a0, a1, a2, a3, a4, a5}));
  }

  @Override
  public CallResult<Object> call(Object a0, Object a1, Object a2, Object a3, Object a4, Object a5) {
    return core.call(args(6, new Object[] {a0, a1, a2, a3, a4, a5}));
  }

  @Override
  public MemorizedResult<Object> callAndShelve(Object a0, Object a1, Object a2, Object a3, Object a4, Object a5) {
    return core.callAndShelve(args(6, new Object[] {a0, a1, a2, a3, a4, a5}));
  }

  @Override
  public boolean checkCallInCache(Object a0, Object a1, Object a2, Object a3, Object a4, Object a5) {
    return core.checkCallInCache(args(6, new Object[] {a0, a1, a2, a3, a4, a5}));
  }

  @Override
  public io.joblib4j.MissExplanation explain(Object a0, Object a1, Object a2, Object a3, Object a4, Object a5) {
    return core.explain(args(6, new Object[] {a0, a1, a2, a3, a4, a5}));
  }

  @Override
  public MemoizedImpl ignore(int... positions) {
    return with(core.options.withIgnoredPositions(positions));
  }

  @Override
  public MemoizedImpl ignore(String... names) {
    return with(core.options.withIgnoredNames(names));
  }

  @Override
  public MemoizedImpl mmapMode(MmapMode mode) {
    return with(core.options.withMmapMode(Memoizer.checkMmapMode(mode)));
  }

  @Override
  public MemoizedImpl compress(Compress compress) {
    return with(core.options.withCompress(java.util.Objects.requireNonNull(compress, "compress")));
  }

  @Override
  public MemoizedImpl verbose(int level) {
    if (level < 0) {
      throw new IllegalArgumentException("verbose must be >= 0, got " + level);
    }
    return with(core.options.withVerbose(level));
  }

  @Override
  public MemoizedImpl validation(CacheValidation validation) {
    return with(core.options.withValidation(java.util.Objects.requireNonNull(validation, "validation")));
  }

  @Override
  public MemoizedImpl expiresAfter(Duration age) {
    return validation(CacheValidation.expiresAfter(age));
  }

  @Override
  public MemoizedImpl allow(Class<?>... classes) {
    return with(core.options.withAllowed(classes));
  }

  private MemoizedImpl with(CallOptions options) {
    MemoizedImpl m = new MemoizedImpl(memory, core.with(options));
    if (core.enabled()) {
      m.core.checkOptions();
    }
    return m;
  }

  @Override
  public void clear() {
    core.clear();
  }

  @Override
  public io.joblib4j.CacheListing entries() {
    return core.entries();
  }

  @Override
  public String function() {
    return core.identity().name();
  }

  @Override
  public Memory memory() {
    return memory;
  }

  @Override
  public String toString() {
    return "MemoizedFunc(func=" + core.identity().name() + ", location=" + memory.location() + ")";
  }
}
