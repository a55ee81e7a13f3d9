package io.joblib4j.internal.memory;

import io.joblib4j.CorruptFileException;

/**
 * What an entry's output file holds: a marker, the call key the result belongs to, and the result
 * — so that a file copied or moved from another entry is recognised as foreign instead of served as
 * this call's result. A plain {@code Object[]} rather than a record: the container decodes arrays
 * without reflection, which keeps a cache hit cheap.
 */
final class CachedOutput {
  static final String MARKER = "joblib4j.memory.entry/1";

  private CachedOutput() {}

  static Object[] of(String key, Object value) {
    return new Object[] {MARKER, key, value};
  }

  /** The result in {@code loaded}, if it is an entry for {@code key}; otherwise the entry is corrupt. */
  static Object valueFor(Object loaded, String key, String entry) {
    if (loaded instanceof Object[] a && a.length == 3 && MARKER.equals(a[0]) && key.equals(a[1])) {
      return a[2];
    }
    throw new CorruptFileException(entry, "the entry holds another call's result (a foreign or moved file)");
  }
}
