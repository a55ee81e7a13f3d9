package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.kryo5.io.Output;
import io.joblib4j.CorruptFileException;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A length written in a file never drives an allocation before it is checked against the bytes
 * that really follow (FORMAT.md's promise; issue 19.3): each hostile input here declares 100 million
 * of something in a few hundred bytes, and the load must fail having allocated little.
 */
class DeclaredLengthsTest {
  private static final int HUNDRED_MILLION = 100_000_000;
  /** What one load may allocate in these tests: far less than what the lengths declare. */
  private static final long ALLOCATION_LIMIT = 16L << 20;

  /** A container whose root value is a Kryo payload written by {@code payload}. */
  static byte[] kryoContainer(Consumer<Output> payload) throws IOException {
    Output o = new Output(256, -1);
    payload.accept(o);
    o.writeBytes(new byte[200]); // some bytes after the lie, as a real file would have
    byte[] p = o.toBytes();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ContainerWriter w = new ContainerWriter(Sink.of(out));
    ObjectOut objects = new ObjectOut(w);
    objects.writeByte(Tags.KRYO);
    objects.writeVarLong(p.length);
    objects.writeBytes(p, 0, p.length);
    objects.flush();
    w.finish();
    return out.toByteArray();
  }

  /**
   * Kryo's encoding of a new object of a class written by name: NAME + 2, a name id, the name as a
   * string, then the reference marker of a new object (references are on).
   */
  private static void newObjectOf(Output o, String name) {
    o.writeVarInt(1, true);
    o.writeVarInt(0, true);
    o.writeString(name);
    o.writeVarInt(1, true);
  }

  private static long allocatedWhile(Runnable r) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(id);
    r.run();
    return threads.getThreadAllocatedBytes(id) - before;
  }

  private static void assertRefusedCheaply(byte[] file, String what) {
    long allocated = allocatedWhile(() -> assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(file)))
        .as(what).isInstanceOf(JoblibException.class));
    assertThat(allocated).as(what + ": bytes allocated by the load of a " + file.length + "-byte file")
        .isLessThan(ALLOCATION_LIMIT);
  }

  @Test
  void aKryoClassNameDeclaringAHundredMillionCharactersIsRefusedBeforeAllocation() throws IOException {
    byte[] file = kryoContainer(o -> {
      o.writeVarInt(1, true);
      o.writeVarInt(0, true);
      o.writeVarIntFlag(true, HUNDRED_MILLION + 1, true); // a UTF-8 string of 100 M chars follows, it says
    });
    assertThat(file.length).isLessThan(400);
    assertRefusedCheaply(file, "class name");
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(file))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("100000000").hasMessageContaining("bytes");
  }

  @Test
  void kryoStringsBytesArraysAndCollectionsDeclaringAHundredMillionAreRefusedBeforeAllocation()
      throws IOException {
    LoadOptions trusted = LoadOptions.trusted();
    String[][] cases = {
        {"java.util.ArrayList", "collection"}, {"java.util.HashSet", "collection"},
        {"java.util.PriorityQueue", "collection"}, {"java.util.Arrays$ArrayList", "collection"},
        {"java.util.HashMap", "map"}, {"[Ljava.lang.Object;", "array"}, {"[Ljava.lang.Integer;", "array"},
        {"[Ljava.lang.String;", "array"}, {"[J", "array"}, {"[D", "array"}, {"[I", "array"}, {"[C", "array"},
        {"[Z", "array"}, {"[B", "array"}, {"[S", "array"}, {"[F", "array"},
        {"java.math.BigInteger", "array"}, {"java.util.BitSet", "array"}, {"java.lang.StringBuilder", "string"}};
    for (String[] c : cases) {
      byte[] file = kryoContainer(o -> {
        newObjectOf(o, c[0]);
        if (c[1].equals("collection")) {
          o.writeVarIntFlag(false, HUNDRED_MILLION + 1, true);
        } else if (c[1].equals("string")) {
          o.writeVarIntFlag(true, HUNDRED_MILLION + 1, true);
        } else {
          o.writeVarInt(HUNDRED_MILLION + 1, true);
        }
      });
      long allocated = allocatedWhile(() -> assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(file),
          trusted)).as(c[0]).isInstanceOf(JoblibException.class));
      assertThat(allocated).as(c[0] + ": bytes allocated").isLessThan(ALLOCATION_LIMIT);
    }
  }

  /** Not Serializable, so it is written by Kryo: one field of each kind whose length Kryo reads. */
  static final class Everything {
    String name = "n\u00e9e-" + "x".repeat(100);
    int[] ints = {1, -2, 3};
    long[] longs = {4, 5};
    boolean[] flags = {true, false};
    char[] chars = {'a', 'b'};
    double[] doubles = {0.5};
    String[] strings = {"a", null, "c"};
    Integer[] boxed = {1, 2};
    java.util.List<Object> list = new java.util.ArrayList<>(java.util.List.of("x", 2));
    java.util.Map<String, Integer> map = new java.util.HashMap<>(java.util.Map.of("k", 1));
    java.util.Set<Integer> set = new java.util.HashSet<>(java.util.Set.of(7));
    java.util.PriorityQueue<Integer> queue = new java.util.PriorityQueue<>(java.util.List.of(3, 1));
    java.util.List<Integer> fixed = java.util.Arrays.asList(8, 9);
    java.math.BigInteger big = java.math.BigInteger.TWO.pow(100);
    java.util.BitSet bits = java.util.BitSet.valueOf(new long[] {5});
    StringBuilder text = new StringBuilder("sb");
  }

  @Test
  void kryoPayloadsWithEveryKindOfLengthStillRoundTrip() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(new Everything(), out);
    Everything back = Joblib.load(new ByteArrayInputStream(out.toByteArray()), LoadOptions.trusted());
    Everything e = new Everything();
    assertThat(back.name).isEqualTo(e.name);
    assertThat(back.ints).containsExactly(e.ints);
    assertThat(back.longs).containsExactly(e.longs);
    assertThat(back.flags).containsExactly(e.flags);
    assertThat(back.chars).containsExactly(e.chars);
    assertThat(back.doubles).containsExactly(e.doubles);
    assertThat(back.strings).containsExactly(e.strings);
    assertThat(back.boxed).containsExactly(e.boxed);
    assertThat(back.list).isEqualTo(e.list);
    assertThat(back.map).isEqualTo(e.map);
    assertThat(back.set).isEqualTo(e.set);
    assertThat(back.queue).containsExactlyInAnyOrderElementsOf(e.queue);
    assertThat(back.fixed).isEqualTo(e.fixed);
    assertThat(back.big).isEqualTo(e.big);
    assertThat(back.bits).isEqualTo(e.bits);
    assertThat(back.text).hasToString("sb");
  }

  @Test
  void ourOwnStringsAndCollectionsDeclaringAHundredMillionCostOnlyTheirBytes() throws IOException {
    int[][] cases = {{Tags.STRING}, {Tags.LIST, Tags.C_PLAIN}, {Tags.LIST, Tags.C_LINKED}, {Tags.SET, Tags.C_PLAIN},
        {Tags.MAP, Tags.C_PLAIN}, {Tags.MAP, Tags.C_SORTED}, {Tags.BIG_INTEGER}, {Tags.JAVA}, {Tags.KRYO}};
    for (int[] c : cases) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ContainerWriter w = new ContainerWriter(Sink.of(out));
      ObjectOut objects = new ObjectOut(w);
      for (int b : c) {
        objects.writeByte(b);
      }
      objects.writeVarLong(HUNDRED_MILLION);
      objects.writeBytes(new byte[200], 0, 200);
      objects.flush();
      w.finish();
      assertRefusedCheaply(out.toByteArray(), "tag " + c[0]);
    }
  }
}
