package io.joblib4j.internal.hash;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Joblib;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Pinned xxHash3-128 keys of every primitive array kind at lengths around the 1 MiB chunk borders
 * (empty, a few elements, one chunk less one element, one chunk, one more, a partial third chunk,
 * and enough chunks for the parallel path), and of values longer than a 64 KiB block. The values
 * were computed with the previous hashing library (zero-allocation-hashing read through Unsafe):
 * they are users' stored cache keys, so any implementation must reproduce them bit for bit.
 */
class ArrayHashGoldenValuesTest {
  @Test
  void arrayAndLongValueHashesAreThePinnedOnes() {
    Map<String, String> actual = new LinkedHashMap<>();
    values().forEach((name, value) -> actual.put(name, Joblib.hash(value)));
    assertThat(actual).containsExactlyEntriesOf(PINNED);
  }

  /** Fixed pseudo-random content, so that a swapped, dropped or misordered byte changes the hash. */
  static Map<String, Object> values() {
    Map<String, Object> v = new LinkedHashMap<>();
    String[] kinds = {"double", "long", "int", "float", "short", "char", "byte", "boolean"};
    int[] sizes = {8, 8, 4, 4, 2, 2, 1, 1};
    for (int k = 0; k < kinds.length; k++) {
      int perChunk = Xxh3Sink.CHUNK / sizes[k];
      for (int n : new int[] {0, 1, 3, perChunk - 1, perChunk, perChunk + 1, 2 * perChunk + 5, 8 * perChunk + 3}) {
        v.put(kinds[k] + "[" + n + "]", array(kinds[k], n, new SplittableRandom(31L * k + n)));
      }
    }
    StringBuilder s = new StringBuilder();
    SplittableRandom r = new SplittableRandom(7);
    while (s.length() < 3 * Xxh3Sink.BLOCK + 11) {
      s.append((char) ('a' + r.nextInt(26)));
    }
    v.put("string of three blocks", s.toString());
    List<Object> list = new ArrayList<>();
    for (int i = 0; i < 40_000; i++) {
      list.add(i % 3 == 0 ? "s" + i : i % 3 == 1 ? (Object) (long) i : new double[] {i, -i});
    }
    v.put("list over many blocks", list);
    return v;
  }

  private static Object array(String kind, int n, SplittableRandom r) {
    switch (kind) {
      case "double": {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) a[i] = Double.longBitsToDouble(r.nextLong());
        return a;
      }
      case "long": return r.longs(n).toArray();
      case "int": return r.ints(n).toArray();
      case "float": {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = Float.intBitsToFloat(r.nextInt());
        return a;
      }
      case "short": {
        short[] a = new short[n];
        for (int i = 0; i < n; i++) a[i] = (short) r.nextInt();
        return a;
      }
      case "char": {
        char[] a = new char[n];
        for (int i = 0; i < n; i++) a[i] = (char) r.nextInt();
        return a;
      }
      case "byte": {
        byte[] a = new byte[n];
        r.nextBytes(a);
        return a;
      }
      default: {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) a[i] = r.nextBoolean();
        return a;
      }
    }
  }

  /** Prints {@link #PINNED}'s entries for the current implementation. */
  public static void main(String[] args) {
    values().forEach((name, value) -> System.out.println("    PINNED.put(\"" + name + "\", \"" + Joblib.hash(value) + "\");"));
  }

  private static final Map<String, String> PINNED = new LinkedHashMap<>();

  static {
    PINNED.put("double[0]", "1e7fb4963ed4499d6de79afe1d3d7dee");
    PINNED.put("double[1]", "0508039923410f1ab9657887fda04c5f");
    PINNED.put("double[3]", "309b4cdc14ceaebf7ccbea8c296a9661");
    PINNED.put("double[131071]", "815913c05664d55ccec132e619288745");
    PINNED.put("double[131072]", "202e149a4bb29afa759147b481c9908f");
    PINNED.put("double[131073]", "dae23a2de58dcb3915904958b816e9cf");
    PINNED.put("double[262149]", "926eecab2c36bd1748b00b9ad76e6042");
    PINNED.put("double[1048579]", "50b408807c2b57b49901c29232002953");
    PINNED.put("long[0]", "e9a1e37faaa4751ee0ab262901720aa8");
    PINNED.put("long[1]", "773f7cc6bc40e83423f0146f506eeb19");
    PINNED.put("long[3]", "9e20292c793ea4e3eeec97a952cdb004");
    PINNED.put("long[131071]", "48c9446b907b8f501ce745f2d930c987");
    PINNED.put("long[131072]", "61b76ede403a9c8344c2007ade5217da");
    PINNED.put("long[131073]", "1b6132657124a62f5da8c2d7c7771fe2");
    PINNED.put("long[262149]", "9030a991ed4d0ed7627ced7b9ea2d30b");
    PINNED.put("long[1048579]", "c9f7c5e464f9aea3629e22fce8b71cc5");
    PINNED.put("int[0]", "6a742f5c1173b9c1dd2863cf650cc806");
    PINNED.put("int[1]", "b36282f0b6f71973ab981b3d2942c501");
    PINNED.put("int[3]", "4c3a8049da4c5131e4b73a0d79917d5f");
    PINNED.put("int[262143]", "e3a92c34d4ed7c31e444bae1816ed043");
    PINNED.put("int[262144]", "9869b47a24303c3b51587380da332295");
    PINNED.put("int[262145]", "c3bc9de0112423ea6755329bdff94b1f");
    PINNED.put("int[524293]", "126864362ed03fbdad91243eaf96ccfa");
    PINNED.put("int[2097155]", "b2b59cc63079c1fe9a12e2200e44aa87");
    PINNED.put("float[0]", "ec02e9745d2d7f3ebafe4d02fbc4142a");
    PINNED.put("float[1]", "5ce27c36abed3a5fca9bf0b2c0f93e7f");
    PINNED.put("float[3]", "55ac9c01648c7d051892d55627159e4b");
    PINNED.put("float[262143]", "262de8e8614b060c5a64414931da3a51");
    PINNED.put("float[262144]", "804b20694e9a5840b97db7c223c70941");
    PINNED.put("float[262145]", "feb672ddd9d64b5865e50a5f94ed0d97");
    PINNED.put("float[524293]", "88f5ac48fb836d9d59c87eada940b504");
    PINNED.put("float[2097155]", "a1b5fe45079d1f587b074e2259c076ba");
    PINNED.put("short[0]", "702edfb4dfaef85ab22a2425db6efdd6");
    PINNED.put("short[1]", "aab365a4a820ae99ed2dca7ffde30503");
    PINNED.put("short[3]", "a3709a74da57d2c8af1945851345c686");
    PINNED.put("short[524287]", "6388675b26e60677d43ee22e83ed267b");
    PINNED.put("short[524288]", "13785f771651bfa9198c8327787b6ccf");
    PINNED.put("short[524289]", "280caedbd914126db55d5578040d574c");
    PINNED.put("short[1048581]", "9157bd9c83cc354f947570bc7acc3065");
    PINNED.put("short[4194307]", "e86792b87f762648a5f4fea97d116597");
    PINNED.put("char[0]", "47c3936f1397314b2a004aa0149ec28d");
    PINNED.put("char[1]", "3b2cb836342000e39f5b604846976125");
    PINNED.put("char[3]", "f1c856908c612acd72a19120433ec8cf");
    PINNED.put("char[524287]", "b23257835372264ec50c66988c3cb21a");
    PINNED.put("char[524288]", "3b6f827dff19d7991b90e1e39b11471f");
    PINNED.put("char[524289]", "89ffa9bba38d890cda1297c5298c627e");
    PINNED.put("char[1048581]", "70de790cdb67903432aaec86804fa371");
    PINNED.put("char[4194307]", "7a9f6b55106b1ae3721281d756973ee3");
    PINNED.put("byte[0]", "bf703c0594041d80baba84ed4e72e616");
    PINNED.put("byte[1]", "28d303b3b1369c2825a5367b3b562e9e");
    PINNED.put("byte[3]", "fad67032404feda92714d35f00f5430e");
    PINNED.put("byte[1048575]", "d775944e5622ded6e6389829bcf0b60e");
    PINNED.put("byte[1048576]", "256a3eede769bc15cdda08b80b83a53a");
    PINNED.put("byte[1048577]", "374576f5a05377e3cc1f1afeb759074d");
    PINNED.put("byte[2097157]", "d6345da106f89507a00289cf885ccace");
    PINNED.put("byte[8388611]", "b1e3cd6f69ec2bb414c6acb4f2af17d0");
    PINNED.put("boolean[0]", "4a4e0f507e307823233a132e813f8bba");
    PINNED.put("boolean[1]", "605400c97daf9d5811e9436c7173d99b");
    PINNED.put("boolean[3]", "63975640053c42316961120b22197b45");
    PINNED.put("boolean[1048575]", "be118625b757283f2b80d2816aa883f9");
    PINNED.put("boolean[1048576]", "72124d0b59a6e0d1b7ce59c2a19f79b9");
    PINNED.put("boolean[1048577]", "3cfc3af4f8467ab7865b1ee0ea415c95");
    PINNED.put("boolean[2097157]", "5c82b482209b6804a5e3a92b73e1a56a");
    PINNED.put("boolean[8388611]", "1b48754b7eb41e56e3cd34d24a343e64");
    PINNED.put("string of three blocks", "537b26c6374e397f0242a4f1bd348b23");
    PINNED.put("list over many blocks", "bb1b5c75c99fd5c18303165145b8f733");
  }
}
