package io.joblib4j.internal.memory;

import io.joblib4j.Memory;
import java.nio.file.Path;

/**
 * The functions of the committed cache fixture {@code legacy-cache-v1/} (test resources): entries
 * written by joblib4j before metadata.json recorded key components, so that tests can prove such
 * entries still load, list and explain. Never change these methods: their code version is part of
 * the fixture's call keys.
 */
public final class LegacyEntries {
  private LegacyEntries() {}

  /** The cached function of the fixture. */
  public static long[] squares(int n, String label) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = (long) i * i;
    }
    return out;
  }

  /** Writes the fixture into {@code args[0]} (run once, with the code of the commit that added it). */
  public static void main(String[] args) {
    Memory memory = Memory.builder(Path.of(args[0])).verbose(0).build();
    memory.cache(LegacyEntries::squares).apply(4, "four");
    memory.cache(LegacyEntries::squares).apply(5, "five");
  }
}
