package io.joblib4j.internal.hash;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.Joblib;
import io.joblib4j.array.NDArray;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Prints the hashes of fixed values, one per line: run in a second JVM to compare with this one. */
public final class HashPrinter {
  private HashPrinter() {}

  record Pair(String name, int[] values) {}

  static List<Object> values() {
    Map<String, Integer> big = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      big.put("k" + i, i);
    }
    double[] arr = new double[3_000_000];
    for (int i = 0; i < arr.length; i++) {
      arr[i] = Math.sin(i);
    }
    List<Object> v = new ArrayList<>();
    v.add("This is a string to hash");
    v.add(1);
    v.add(1L);
    v.add(List.of(1, 2, 3));
    v.add(new int[] {1, 2, 3});
    v.add(Set.of("a", "b", "c"));
    v.add(big);
    v.add(arr);
    v.add(NDArray.of(new double[] {1, 2, 3, 4}, 2, 2));
    v.add(new Pair("p", new int[] {4}));
    Map<Object, Object> m = new LinkedHashMap<>();
    m.put(null, Double.NaN);
    m.put(-0.0, "\uD800");
    v.add(m);
    Map<String, Object> cyclic = new HashMap<>(); // hashed with a back-reference
    cyclic.put("self", List.of(cyclic, 1));
    v.add(cyclic);
    return v;
  }

  static List<String> hashes() {
    List<String> out = new ArrayList<>();
    for (Object o : values()) {
      out.add(Joblib.hash(o) + " " + Joblib.hash(o, HashAlgorithm.SHA_256));
    }
    return out;
  }

  public static void main(String[] args) {
    hashes().forEach(System.out::println);
  }
}
