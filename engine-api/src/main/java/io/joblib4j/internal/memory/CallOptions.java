package io.joblib4j.internal.memory;

import io.joblib4j.CacheValidation;
import io.joblib4j.Compress;
import io.joblib4j.MmapMode;
import java.io.Serializable;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * A memoized function's own options; null means "as the Memory says".
 *
 * @param ignoredPositions 0-based argument positions left out of the key
 * @param ignoredNames argument names left out of the key
 * @param mmapMode how to load results, or null
 * @param compress how to store results, or null
 * @param verbose how talkative, or null
 * @param validation which stored results may be used, or null for all
 * @param allowedClasses classes allowed in results beyond the Memory's allow-list
 */
record CallOptions(
    TreeSet<Integer> ignoredPositions,
    TreeSet<String> ignoredNames,
    MmapMode mmapMode,
    Compress compress,
    Integer verbose,
    CacheValidation validation,
    LinkedHashSet<String> allowedClasses) implements Serializable {

  static final CallOptions NONE = new CallOptions(new TreeSet<>(), new TreeSet<>(), null, null, null, null,
      new LinkedHashSet<>());

  CallOptions withIgnoredPositions(int... positions) {
    TreeSet<Integer> p = new TreeSet<>(ignoredPositions);
    for (int i : positions) {
      p.add(i);
    }
    return new CallOptions(p, ignoredNames, mmapMode, compress, verbose, validation, allowedClasses);
  }

  CallOptions withIgnoredNames(String... names) {
    TreeSet<String> n = new TreeSet<>(ignoredNames);
    for (String s : names) {
      n.add(s);
    }
    return new CallOptions(ignoredPositions, n, mmapMode, compress, verbose, validation, allowedClasses);
  }

  CallOptions withMmapMode(MmapMode m) {
    return new CallOptions(ignoredPositions, ignoredNames, m, compress, verbose, validation, allowedClasses);
  }

  CallOptions withCompress(Compress c) {
    return new CallOptions(ignoredPositions, ignoredNames, mmapMode, c, verbose, validation, allowedClasses);
  }

  CallOptions withVerbose(int v) {
    return new CallOptions(ignoredPositions, ignoredNames, mmapMode, compress, v, validation, allowedClasses);
  }

  CallOptions withValidation(CacheValidation v) {
    return new CallOptions(ignoredPositions, ignoredNames, mmapMode, compress, verbose, v, allowedClasses);
  }

  CallOptions withAllowed(Class<?>... classes) {
    LinkedHashSet<String> a = new LinkedHashSet<>(allowedClasses);
    for (Class<?> c : classes) {
      a.add(c.getName());
    }
    return new CallOptions(ignoredPositions, ignoredNames, mmapMode, compress, verbose, validation, a);
  }

  /** The classes allowed in results: these options' plus the function's declared result type. */
  Set<String> allowedWith(Class<?> resultType) {
    if (resultType == null || resultType == Object.class || resultType.isPrimitive()) {
      return allowedClasses;
    }
    Set<String> all = new LinkedHashSet<>(allowedClasses);
    all.add(resultType.getName());
    return all;
  }
}
