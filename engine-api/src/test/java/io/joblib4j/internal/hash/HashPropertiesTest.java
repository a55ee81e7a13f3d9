package io.joblib4j.internal.hash;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.Joblib;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** jqwik: equal content gives equal hashes, any change gives a different one, order never matters. */
class HashPropertiesTest {
  @Provide
  Arbitrary<Object> values() {
    Arbitrary<Object> leaf = Arbitraries.oneOf(Arbitraries.integers().map(i -> (Object) i),
        Arbitraries.longs().map(l -> (Object) l), Arbitraries.strings().ofMaxLength(20).map(s -> (Object) s),
        Arbitraries.doubles().map(d -> (Object) d), Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.doubles().array(double[].class).ofMaxSize(50).map(a -> (Object) a),
        Arbitraries.integers().array(int[].class).ofMaxSize(50).map(a -> (Object) a));
    return Arbitraries.recursive(() -> leaf, inner -> Arbitraries.oneOf(
        inner.list().ofMaxSize(5).map(l -> (Object) l),
        Arbitraries.maps(Arbitraries.strings().ofMaxLength(5), inner).ofMaxSize(5).map(m -> (Object) m)), 3);
  }

  @Property(tries = 300)
  void equalContentHashesEqualEvenAfterACopy(@ForAll("values") Object v) {
    Object copy = deepCopy(v);
    assertThat(Joblib.hash(copy)).isEqualTo(Joblib.hash(v));
    assertThat(Joblib.hash(copy, HashAlgorithm.SHA_256)).isEqualTo(Joblib.hash(v, HashAlgorithm.SHA_256));
  }

  @Property(tries = 300)
  void changingOneElementChangesTheHash(@ForAll @Size(min = 1, max = 200) List<Integer> list, @ForAll int index,
      @ForAll int delta) {
    if (delta == 0) {
      delta = 1;
    }
    List<Integer> changed = new ArrayList<>(list);
    int i = Math.floorMod(index, list.size());
    changed.set(i, changed.get(i) + delta);
    assertThat(Joblib.hash(changed)).isNotEqualTo(Joblib.hash(list));
    int[] arr = list.stream().mapToInt(Integer::intValue).toArray();
    int[] arr2 = changed.stream().mapToInt(Integer::intValue).toArray();
    assertThat(Joblib.hash(arr2)).isNotEqualTo(Joblib.hash(arr));
  }

  @Property(tries = 200)
  void changingAMapValueOrKeyChangesTheHash(@ForAll @Size(min = 1, max = 50) Map<String, Integer> m) {
    String key = m.keySet().iterator().next();
    Map<String, Integer> v = new HashMap<>(m);
    v.put(key, m.get(key) + 1);
    assertThat(Joblib.hash(v)).isNotEqualTo(Joblib.hash(m));
    Map<String, Integer> k = new HashMap<>(m);
    k.remove(key);
    k.put(key + "\u0000", m.get(key));
    assertThat(Joblib.hash(k)).isNotEqualTo(Joblib.hash(m));
  }

  @Property(tries = 200)
  void mapAndSetOrderNeverMatters(@ForAll Map<String, Integer> m, @ForAll long seed) {
    List<Map.Entry<String, Integer>> entries = new ArrayList<>(m.entrySet());
    Collections.shuffle(entries, new Random(seed));
    Map<String, Integer> shuffled = new LinkedHashMap<>();
    entries.forEach(e -> shuffled.put(e.getKey(), e.getValue()));
    assertThat(Joblib.hash(shuffled)).isEqualTo(Joblib.hash(m));
    assertThat(Joblib.hash(shuffled, HashAlgorithm.SHA_256)).isEqualTo(Joblib.hash(m, HashAlgorithm.SHA_256));
    Set<String> keys = new HashSet<>(m.keySet());
    List<String> order = new ArrayList<>(keys);
    Collections.shuffle(order, new Random(seed));
    assertThat(Joblib.hash(new java.util.LinkedHashSet<>(order))).isEqualTo(Joblib.hash(keys));
  }

  @SuppressWarnings("unchecked")
  private static Object deepCopy(Object v) {
    if (v instanceof List) {
      List<Object> out = new ArrayList<>();
      ((List<Object>) v).forEach(x -> out.add(deepCopy(x)));
      return out;
    }
    if (v instanceof Map) {
      Map<Object, Object> out = new HashMap<>();
      ((Map<Object, Object>) v).forEach((k, x) -> out.put(new String((String) k), deepCopy(x)));
      return out;
    }
    if (v instanceof String) {
      return new String((String) v);
    }
    if (v instanceof double[]) {
      return ((double[]) v).clone();
    }
    if (v instanceof int[]) {
      return ((int[]) v).clone();
    }
    return v;
  }
}
