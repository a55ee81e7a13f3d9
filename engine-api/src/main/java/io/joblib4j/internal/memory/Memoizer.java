package io.joblib4j.internal.memory;

import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** What {@link Memory} delegates to: making memoized functions and clearing the whole store. */
public final class Memoizer {
  /** How long a claim lives unless renewed ({@code Memory.Builder.claimComputations()}). */
  public static final java.time.Duration DEFAULT_CLAIM_LEASE = Claims.DEFAULT_LEASE;
  /** How long a JVM waits for another's claimed computation in all. */
  public static final java.time.Duration DEFAULT_CLAIM_WAIT = Claims.DEFAULT_MAX_WAIT;

  private Memoizer() {}

  /** The memoized version of {@code fn}, typed as the caller's {@code MemoizedFnN}. */
  @SuppressWarnings("unchecked")
  public static <M> M memoize(Memory memory, CacheSettings settings, Object fn, int arity) {
    Objects.requireNonNull(fn, "function to cache");
    if (fn instanceof MemoizedImpl m) {
      fn = m.wrappedFunction(); // joblib unwraps a MemorizedFunc passed to cache()
    }
    CachedFunction core = new CachedFunction(settings, fn, arity, CallOptions.NONE);
    if (settings.location() != null) {
      core.identity(); // fail now, not at the first call, if the function cannot be identified
    }
    return (M) new MemoizedImpl(memory, core);
  }

  /** Memory entries are immutable: a writable mapping would change a cached result for every reader. */
  public static MmapMode checkMmapMode(MmapMode mode) {
    if (mode == MmapMode.READ_WRITE) {
      throw new IllegalArgumentException("Memory cannot map results READ_WRITE: cached entries are immutable"
          + " and shared. Use READ_ONLY, or COPY_ON_WRITE for a private writable copy.");
    }
    return mode;
  }

  /**
   * Deletes the entries and folder of every memoized function in the store, and nothing else that
   * shares the location (see {@link Layout#deleteFunctionFolder}); the .gitignore stays, or is
   * written if missing.
   */
  public static void clearAll(CacheSettings settings) {
    if (settings.location() == null) {
      return;
    }
    Store store = settings.store();
    try {
      for (StoreFile top : store.children("")) {
        if (top.directory() && Layout.isFunctionFolderName(top.path())) {
          Layout.deleteFunctionFolder(store, top.path());
        }
      }
      if (!store.exists(Layout.GITIGNORE)) {
        store.replace(Layout.GITIGNORE, Layout.GITIGNORE_CONTENT.getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear the cache at " + store.location(), e);
    } finally {
      CachedFunction.forgetChecks(settings.location());
      MemoryLimits.forget(settings.location()); // the running total is now wrong: the next store lists
    }
  }
}
