package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.testing.Captured;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memoized function returning one of the JDK collections the allow-list names hits its cache
 * (issue 19.4: a ConcurrentHashMap result was refused on load, so every call computed again).
 */
class MemoryCachesJdkCollectionsTest {
  static final AtomicInteger CALLS = new AtomicInteger();

  @TempDir Path dir;

  static Object build(String kind) {
    CALLS.incrementAndGet();
    switch (kind) {
      case "ConcurrentHashMap": return new ConcurrentHashMap<>(Map.of("a", 1, "b", 2));
      case "ConcurrentSkipListMap": return new ConcurrentSkipListMap<>(Map.of("a", 1, "b", 2));
      case "PriorityQueue": return new PriorityQueue<>(List.of(3, 1, 2));
      case "IdentityHashMap": return new IdentityHashMap<>(Map.of("a", 1));
      default: throw new IllegalArgumentException(kind);
    }
  }

  @Test
  void aConcurrentHashMapResultIsComputedOnceThenLoaded() {
    MemoizedFn1<String, Object> f = Memory.builder(dir).verbose(0).build().cache(MemoryCachesJdkCollectionsTest::build);
    for (String kind : List.of("ConcurrentHashMap", "ConcurrentSkipListMap", "PriorityQueue", "IdentityHashMap")) {
      CALLS.set(0);
      List<Object> results = new ArrayList<>();
      List<String> warnings = Captured.warnings(() -> {
        for (int i = 0; i < 3; i++) {
          results.add(f.apply(kind));
        }
      });
      assertThat(CALLS).as(kind + ": computations for 3 calls").hasValue(1);
      assertThat(warnings).as(kind).isEmpty();
      assertThat(results).allSatisfy(r -> assertThat(r.getClass().getSimpleName()).isEqualTo(kind));
    }
  }
}
