package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static io.joblib4j.testing.JavaSerialized.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DelayedTest {

  static int add(int a, int b) {
    return a + b;
  }

  record Point(int x, int y) {}

  /** Every kind of task users build; all must survive Java serialization and still run. */
  static Stream<Delayed<?>> tasks() {
    int captured = 40;
    String prefix = "p-";
    List<Integer> capturedList = List.of(1, 2, 3);
    return Stream.of(
        delayed(Math::sqrt, 16.0),
        delayed(DelayedTest::add, 2, 3),
        delayed(String::valueOf, 7),
        delayed(Integer::parseInt, "12"),
        delayed(String::concat, "a", "b"),
        delayed(Point::new, 1, 2),
        delayed(() -> captured + 2),
        delayed((String s) -> prefix + s, "x"),
        delayed(() -> capturedList.size()),
        delayed((Map<String, Integer> m) -> m.get("k"), Map.of("k", 9)),
        delayed((Integer a, Integer b, Integer c) -> a * b * c, 2, 3, 4),
        delayed((Integer a, Integer b, Integer c, Integer d, Integer e, Integer f) -> a + b + c + d + e + f,
            1, 2, 3, 4, 5, 6));
  }

  @ParameterizedTest
  @MethodSource("tasks")
  void survivesJavaSerializationAndStillRuns(Delayed<?> task) throws Exception {
    Object expected = task.call();
    Delayed<?> back = roundTrip(task);
    assertThat(back.call()).isEqualTo(expected);
    assertThat(back.functionName()).isEqualTo(task.functionName());
  }

  @Test
  void namesTheFunctionReadably() {
    assertThat(delayed(DelayedTest::add, 1, 2).functionName()).isEqualTo("DelayedTest.add");
    assertThat(delayed(Point::new, 1, 2).functionName()).isEqualTo("DelayedTest.Point::new");
    assertThat(delayed(() -> 1).functionName()).isEqualTo("lambda in DelayedTest.namesTheFunctionReadably");
    assertThat(delayed(Math::sqrt, 4.0).toString()).isEqualTo("delayed(Math.sqrt, 1 args)");
  }

  @Test
  void exposesItsFunctionAndACopyOfItsArguments() {
    Delayed<Integer> d = delayed(DelayedTest::add, 1, null);
    assertThat(d.arguments()).containsExactly(1, null);
    assertThatThrownBy(() -> d.arguments().set(0, 5)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(d.function()).isNotNull();
  }

  @Test
  void checkedExceptionsPropagateFromCallUnchanged() {
    Delayed<String> d = delayed(() -> {
      throw new FileNotFoundException("missing.csv");
    });
    assertThatThrownBy(d::call).isInstanceOf(FileNotFoundException.class).hasMessage("missing.csv");
  }

  @Test
  void aNullFunctionIsRejected() {
    assertThatThrownBy(() -> delayed((io.joblib4j.fn.Fn0<Object>) null)).isInstanceOf(NullPointerException.class);
  }
}
