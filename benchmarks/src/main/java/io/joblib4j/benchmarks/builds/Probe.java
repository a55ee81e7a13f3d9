package io.joblib4j.benchmarks.builds;

import io.joblib4j.Compress;
import io.joblib4j.Joblib;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import java.nio.file.Path;

/**
 * What the harness times, defined anew in each build's class loader (so {@code io.joblib4j} here
 * is that build's). Only public API, which both builds share.
 */
public final class Probe {
  private Probe() {}

  public static String hash(Object value) {
    return Joblib.hash(value);
  }

  public static double[] small(Integer n) {
    return new double[n];
  }

  /** A memoized function of a small result, called once so that later calls are hits. */
  public static Object memoized(Path dir) {
    MemoizedFn1<Integer, double[]> f = Memory.builder(dir).verbose(0).build().cache(Probe::small);
    f.apply(16);
    return f;
  }

  @SuppressWarnings("unchecked")
  public static Object hit(Object memoized) {
    return ((MemoizedFn1<Integer, double[]>) memoized).apply(16);
  }

  public static void dump(Object value, Path file, String codec) {
    Joblib.dump(value, file, Compress.of(codec, 3));
  }

  public static Object load(Path file) {
    return Joblib.load(file);
  }
}
