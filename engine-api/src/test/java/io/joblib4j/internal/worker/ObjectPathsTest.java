package io.joblib4j.internal.worker;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn0;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectPathsTest {
  static final class Leaf {}

  static class Base implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    transient Leaf skipped = new Leaf();
    static Leaf alsoSkipped = new Leaf();
  }

  static final class Node extends Base {
    @Serial private static final long serialVersionUID = 1L;
    Object next;
    Object[] items;
  }

  @Test
  void findsTheFieldPathToTheFirstObjectThatIsNotSerializable() {
    Node n = new Node();
    n.next = new Node();
    ((Node) n.next).items = new Object[] {"a", List.of(1, new Leaf())};
    assertThat(ObjectPaths.find(n, ObjectPaths.notSerializable())).contains(
        "field 'next' (" + Node.class.getName() + ") → field 'items' ([Ljava.lang.Object;) → [1] ("
            + List.of(1, 2).getClass().getName() + ") → [1] (" + Leaf.class.getName() + ")");
  }

  @Test
  void skipsTransientAndStaticFieldsAndSurvivesCycles() {
    Node a = new Node();
    Node b = new Node();
    a.next = b;
    b.next = a;
    assertThat(ObjectPaths.find(a, ObjectPaths.notSerializable())).isEmpty();
  }

  @Test
  void looksIntoMapsByKeyAndIntoTheValuesALambdaCaptured() {
    Map<String, Object> m = Map.of("db", new Leaf());
    assertThat(ObjectPaths.find(new ArrayList<>(List.of(m)), ObjectPaths.notSerializable()))
        .contains("[0] (" + m.getClass().getName() + ") → [db] (" + Leaf.class.getName() + ")");
    Leaf captured = new Leaf();
    Fn0<Integer> fn = () -> captured.hashCode();
    assertThat(ObjectPaths.find(delayed(fn), ObjectPaths.notSerializable()))
        .hasValueSatisfying(p -> assertThat(p).startsWith("function (lambda in ObjectPathsTest.")
            .endsWith("→ captured value 0 (" + Leaf.class.getName() + ")"));
  }

  @Test
  void namesTheArgumentsOfATask() {
    assertThat(ObjectPaths.find(delayed((a, b) -> 0, "x", new Leaf()), ObjectPaths.ofClass(Leaf.class.getName())))
        .contains("argument 1 (" + Leaf.class.getName() + ")");
  }
}
