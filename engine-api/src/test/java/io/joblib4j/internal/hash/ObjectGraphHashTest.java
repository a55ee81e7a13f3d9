package io.joblib4j.internal.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Joblib;
import io.joblib4j.fn.Fn1;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Object graphs with cycles hash by their shape (a reference back to an object being hashed is
 * hashed as how many levels up it is), unhashable values are named by their path from the root,
 * and transient fields stay out on every path.
 */
class ObjectGraphHashTest {
  static final class Node {
    String name;
    Node next;
    Node prev;

    Node(String name) {
      this.name = name;
    }
  }

  /** A ring of {@code n} nodes linked both ways. */
  static Node ring(int n, String prefix) {
    Node first = new Node(prefix + 0);
    Node last = first;
    for (int i = 1; i < n; i++) {
      Node x = new Node(prefix + i);
      last.next = x;
      x.prev = last;
      last = x;
    }
    last.next = first;
    first.prev = last;
    return first;
  }

  static List<Object> selfList() {
    List<Object> self = new ArrayList<>();
    self.add(self);
    return self;
  }

  @Test
  void aCycleHashesAndIsomorphicGraphsHashEqual() {
    assertThat(Joblib.hash(selfList())).isEqualTo(Joblib.hash(selfList()));
    assertThat(Joblib.hash(ring(5, "n"))).isEqualTo(Joblib.hash(ring(5, "n")));
    Map<String, Object> m = new HashMap<>();
    m.put("me", m);
    m.put("x", 1);
    Map<String, Object> n = new HashMap<>();
    n.put("x", 1);
    n.put("me", n);
    assertThat(Joblib.hash(m)).isEqualTo(Joblib.hash(n));
  }

  @Test
  void differentGraphsHashDifferently() {
    List<Object> inner = new ArrayList<>();
    List<Object> outer = new ArrayList<>();
    outer.add(inner);
    inner.add(outer); // [[<2 up>]]
    List<Object> nested = new ArrayList<>();
    List<Object> deeper = selfList();
    nested.add(deeper); // [[<1 up>]]
    assertThat(Joblib.hash(outer)).isNotEqualTo(Joblib.hash(nested)).isNotEqualTo(Joblib.hash(selfList()));
    assertThat(Joblib.hash(ring(5, "n"))).isNotEqualTo(Joblib.hash(ring(6, "n"))).isNotEqualTo(Joblib.hash(ring(5, "m")));
    Node changed = ring(5, "n");
    changed.next.next.name = "other";
    assertThat(Joblib.hash(changed)).isNotEqualTo(Joblib.hash(ring(5, "n")));
  }

  @Test
  void sharedButAcyclicValuesHashAsBeforeAsCopies() {
    List<Integer> shared = List.of(1, 2);
    // the same list twice hashes like two equal lists: sharing is not structure
    assertThat(Joblib.hash(List.of(shared, shared))).isEqualTo(Joblib.hash(List.of(List.of(1, 2), List.of(1, 2))));
  }

  /** Pinned: the encoding of a back-reference is part of stored keys. */
  @Test
  void aBackReferenceHashStaysTheSame() {
    assertThat(Joblib.hash(selfList())).isEqualTo(PINNED_SELF_LIST);
  }

  static final String PINNED_SELF_LIST = "f6e100ee126681e9e2d2540df440bf1a";

  static final class Holder {
    final String label = "h";
    final List<Object> items = new ArrayList<>();
  }

  static final class Outer {
    final Holder holder = new Holder();
  }

  @Test
  void anUnhashableValueIsNamedByItsPathAndTheMessageSaysWhatToDo() {
    Outer o = new Outer();
    o.holder.items.add("fine");
    o.holder.items.add(Thread.currentThread());
    assertThatThrownBy(() -> Joblib.hash(o)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(".holder .items [1]")
        .hasMessageContaining("java.lang.Thread")
        .hasMessageContaining("transient");
    Map<String, Object> m = new HashMap<>();
    m.put("lock", new java.util.concurrent.locks.ReentrantLock());
    assertThatThrownBy(() -> Joblib.hash(List.of(m))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0] [\"lock\"]");
  }

  static final class WithTransientThread implements Serializable {
    private static final long serialVersionUID = 1L;
    final int factor;
    transient Thread worker = Thread.currentThread();

    WithTransientThread(int factor) {
      this.factor = factor;
    }

    int times(int x) {
      return x * factor;
    }

    Fn1<Integer, Integer> bound() {
      return this::times; // captures this
    }

    Fn1<Integer, Integer> lambda() {
      return x -> x * factor + 1; // captures this as well
    }
  }

  @Test
  void transientFieldsStayOutOfCapturedObjects() {
    assertThat(Joblib.hash(new WithTransientThread(2).bound())).isEqualTo(Joblib.hash(new WithTransientThread(2).bound()))
        .isNotEqualTo(Joblib.hash(new WithTransientThread(3).bound()));
    assertThat(Joblib.hash(new WithTransientThread(2).lambda())).isEqualTo(Joblib.hash(new WithTransientThread(2).lambda()));
  }

  interface SerFn extends java.util.function.IntUnaryOperator, Serializable {}

  static SerFn anonymous(int offset) {
    return new SerFn() {
      private static final long serialVersionUID = 1L;

      @Override
      public int applyAsInt(int x) {
        return x + offset;
      }
    };
  }

  @Test
  void anAnonymousClassHashesTheValuesItCaptured() {
    // javac keeps captured locals in synthetic fields (val$offset): they are the function's state
    assertThat(Joblib.hash(anonymous(1))).isEqualTo(Joblib.hash(anonymous(1))).isNotEqualTo(Joblib.hash(anonymous(2)));
  }
}
