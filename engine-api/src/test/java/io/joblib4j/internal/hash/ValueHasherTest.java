package io.joblib4j.internal.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.Joblib;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValueHasherTest {
  @TempDir Path dir;

  /** Pinned: changing the hash stream changes every key users have stored. */
  @Test
  void hashesStayTheSame() {
    assertThat(Joblib.hash("This is a string to hash")).isEqualTo(PINNED_STRING);
    assertThat(Joblib.hash(List.of(1, 2, 3))).isEqualTo(PINNED_LIST);
    assertThat(Joblib.hash(new double[] {1.5, -0.0})).isEqualTo(PINNED_ARRAY);
    assertThat(Joblib.hash(Map.of("a", 1), HashAlgorithm.SHA_256)).isEqualTo(PINNED_SHA_MAP);
  }

  static final String PINNED_STRING = "225eb0405fc51fd20e7dcee8f7e0ba9c";
  static final String PINNED_LIST = "b3498f54f3fff7b3b173ffca180219aa";
  static final String PINNED_ARRAY = "65a3ac07e2fbede04824620c6a50e09b";
  static final String PINNED_SHA_MAP = "6a2d82a2c8b745d9b28813849e98d6106ead9c960bea76a1da28628e664efa9f";

  @Test
  void typeTagsKeepLookalikesApart() {
    Set<String> h = new java.util.HashSet<>();
    for (Object o : new Object[] {1, 1L, "1", (short) 1, (byte) 1, 1.0, 1.0f, '1', List.of(1), new int[] {1},
        new long[] {1}, Set.of(1), Map.of(1, 1), new Integer[] {1}, java.util.Optional.of(1), null, true}) {
      assertThat(h.add(Joblib.hash(o))).as("hash of %s is unique", o).isTrue();
    }
  }

  @Test
  void mapsAndSetsIgnoreIterationOrderAndListKindsDoNotMatter() {
    Map<String, Integer> a = new LinkedHashMap<>();
    Map<String, Integer> b = new LinkedHashMap<>();
    for (int i = 0; i < 100; i++) {
      a.put("k" + i, i);
      b.put("k" + (99 - i), 99 - i);
    }
    assertThat(Joblib.hash(a)).isEqualTo(Joblib.hash(b)).isEqualTo(Joblib.hash(new TreeMap<>(a)));
    assertThat(Joblib.hash(a, HashAlgorithm.SHA_256)).isEqualTo(Joblib.hash(b, HashAlgorithm.SHA_256));
    assertThat(Joblib.hash(new LinkedHashSet<>(List.of(3, 1, 2)))).isEqualTo(Joblib.hash(Set.of(1, 2, 3)));
    assertThat(Joblib.hash(new ArrayList<>(List.of(1, 2)))).isEqualTo(Joblib.hash(new LinkedList<>(List.of(1, 2))));
    assertThat(Joblib.hash(List.of(1, 2))).isNotEqualTo(Joblib.hash(List.of(2, 1)));
    Map<String, Integer> swapped = new HashMap<>(a);
    swapped.put("k0", 1);
    swapped.put("k1", 0);
    assertThat(Joblib.hash(swapped)).isNotEqualTo(Joblib.hash(a));
  }

  @Test
  void floatingPointRulesAreTheDocumentedOnes() {
    assertThat(Joblib.hash(0.0)).isNotEqualTo(Joblib.hash(-0.0));
    assertThat(Joblib.hash(Double.NaN)).isEqualTo(Joblib.hash(Double.longBitsToDouble(0x7ff8000000000123L)));
    assertThat(Joblib.hash(new double[] {Double.NaN}))
        .isNotEqualTo(Joblib.hash(new double[] {Double.longBitsToDouble(0x7ff8000000000123L)}));
    assertThat(Joblib.hash(new double[] {0.0})).isNotEqualTo(Joblib.hash(new double[] {-0.0}));
  }

  @Test
  void largeArraysHashTheSameWhateverTheirStorageAndChunking() throws Exception {
    int n = 3_000_017; // many chunks, a partial last one, parallel path
    double[] data = new double[n];
    for (int i = 0; i < n; i++) {
      data[i] = i * 0.5;
    }
    NDArray heap = NDArray.of(data);
    NDArray mapped = NDArray.createMapped(dir.resolve("m.f64"), DType.FLOAT64, n);
    for (int i = 0; i < n; i++) {
      mapped.setDouble(data[i], i);
    }
    assertThat(Joblib.hash(mapped)).isEqualTo(Joblib.hash(heap));
    NDArray matrix = heap.slice(0, 3_000_000).reshape(1000, 3000);
    // a non-contiguous view arrives in small runs; it must hash as its contiguous copy does
    NDArray view = matrix.slice(1, 1, 2999);
    assertThat(Joblib.hash(view)).isEqualTo(Joblib.hash(view.copy()));
    data[n - 1] = 1;
    assertThat(Joblib.hash(data)).isNotEqualTo(Joblib.hash(heap.toDoubleArray()));
    assertThat(Joblib.hash(NDArray.of(1.0, 2.0))).isNotEqualTo(Joblib.hash(NDArray.of(1.0, 2.0).reshape(2, 1)));
  }

  record R(int a, String b) {}

  static class Plain {
    int x = 1;
    transient int ignored;
    List<String> names = List.of("n");
  }

  @Test
  void recordsAndPlainObjectsHashByFieldValues() {
    assertThat(Joblib.hash(new R(1, "b"))).isEqualTo(Joblib.hash(new R(1, "b"))).isNotEqualTo(Joblib.hash(new R(2, "b")));
    Plain p = new Plain();
    Plain q = new Plain();
    q.ignored = 5;
    assertThat(Joblib.hash(p)).isEqualTo(Joblib.hash(q));
    q.x = 2;
    assertThat(Joblib.hash(p)).isNotEqualTo(Joblib.hash(q));
    assertThat(Joblib.hash(Path.of("a"))).isEqualTo(Joblib.hash(Path.of("a"))).isNotEqualTo(Joblib.hash(new File("a")));
  }

  interface SerFn extends java.util.function.IntUnaryOperator, java.io.Serializable {}

  @Test
  void serializableLambdasHashByImplementationAndCapturedValues() {
    int k = 3;
    SerFn f1 = x -> x + k;
    SerFn f2 = x -> x + k;
    assertThat(Joblib.hash(f1)).isNotEqualTo(Joblib.hash(f2)); // two lambdas, two implementation methods
    List<SerFn> same = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      same.add(x -> x * k);
    }
    assertThat(Joblib.hash(same.get(0))).isEqualTo(Joblib.hash(same.get(1)));
    Runnable notSerializable = () -> {};
    assertThatThrownBy(() -> Joblib.hash(notSerializable)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not Serializable");
  }

  @Test
  void valuesNestedTooDeeplyFailClearly() {
    List<Object> deep = new ArrayList<>();
    List<Object> at = deep;
    for (int i = 0; i < 300; i++) {
      List<Object> next = new ArrayList<>();
      at.add(next);
      at = next;
    }
    assertThatThrownBy(() -> Joblib.hash(deep)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deeper than 256 levels").hasMessageContaining("[0] [0] [0]")
        .hasMessageContaining("more").hasMessageContaining("flatter");
  }

  @Test
  void streamingHasherMatchesJoblibHashForOneValueAndSeparatesParts() {
    Object v = Map.of("x", List.of(1, 2));
    assertThat(StreamingHasher.create(HashAlgorithm.XXH3_128).putValue(v).hex()).isEqualTo(Joblib.hash(v));
    String ab = StreamingHasher.create(HashAlgorithm.XXH3_128).putString("ab").putString("c").hex();
    String bc = StreamingHasher.create(HashAlgorithm.XXH3_128).putString("a").putString("bc").hex();
    assertThat(ab).isNotEqualTo(bc);
    StreamingHasher used = StreamingHasher.create(HashAlgorithm.SHA_256).putLong(1);
    assertThat(used.hex()).hasSize(64);
    assertThatThrownBy(used::hex).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void hashesAreTheSameInAnotherJvm() throws Exception {
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(javaBin, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        HashPrinter.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> other = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
        .lines().toList();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    assertThat(other).isEqualTo(HashPrinter.hashes());
  }
}
