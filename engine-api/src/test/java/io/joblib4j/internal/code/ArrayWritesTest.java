package io.joblib4j.internal.code;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.FunctionAdapter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The proof that a task cannot store into the arrays a worker keeps across calls: what it must prove
 * (reading code), and every way of writing or letting an array escape that it must not prove.
 */
class ArrayWritesTest {
  static double[] stash;

  static double sum(double[] a, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) {
      s += a[i];
    }
    return s;
  }

  static double recursiveSum(double[] a, int i) {
    return i < 0 ? 0 : a[i] + recursiveSum(a, i - 1);
  }

  /** Not final, and so are its methods: a subclass could write. */
  static class Helper {
    double touch(double[] a) {
      return a[0];
    }
  }

  static final class FinalHelper {
    double set(double[] a) {
      a[0] = 1;
      return 0;
    }

    double read(double[] a) {
      return a[0];
    }
  }

  private static boolean writesDoubles(Fn1<double[], ?> fn) {
    return ArrayWrites.mayWrite(ArrayWrites.of(fn), double.class);
  }

  @Test
  void aFunctionThatOnlyReadsIsProvenNotToWrite() {
    Fn1<double[], Double> readLoop = a -> {
      double s = 0;
      for (double v : a) {
        s += v;
      }
      return s;
    };
    assertThat(ArrayWrites.of(readLoop)).isZero();
    int t = 3;
    assertThat(ArrayWrites.of((Fn1<double[], Double>) a -> sum(a, t, t + 10))).as("through a static helper").isZero();
    assertThat(ArrayWrites.of((Fn1<double[], Double>) a -> recursiveSum(a, 3))).as("recursive").isZero();
    assertThat(ArrayWrites.of((Fn1<double[], Double>) a -> new FinalHelper().read(a))).as("a final class's method")
        .isZero();
  }

  @Test
  void plainJdkCallsStringsAndExceptionsAreProven() {
    Fn1<double[], String> fn = a -> {
      if (Double.isNaN(a[0])) {
        throw new IllegalArgumentException("NaN at " + 0);
      }
      double r = Math.sqrt(a[1]) + Double.valueOf(a[2]).doubleValue();
      System.out.println("r = " + r);
      return new StringBuilder().append(r).append(a.length).toString();
    };
    assertThat(ArrayWrites.of(fn)).isZero();
  }

  @Test
  void aStoreIsCountedByItsKindOnly() {
    Fn1<double[], Double> histogram = a -> {
      int[] counts = new int[4];
      counts[(int) a[0] & 3]++;
      return (double) counts[0];
    };
    assertThat(writesDoubles(histogram)).as("an int[] of its own").isFalse();
    assertThat(ArrayWrites.mayWrite(ArrayWrites.of(histogram), int.class)).isTrue();

    assertThat(writesDoubles(a -> {
      a[0] = 1;
      return a;
    })).isTrue();
    assertThat(writesDoubles(a -> new FinalHelper().set(a))).as("in a method it calls").isTrue();
    assertThat(ArrayWrites.mayWrite(ArrayWrites.of((Fn1<byte[], Object>) b -> b[0] = 1), boolean.class))
        .as("BASTORE stores booleans too").isTrue();
  }

  @Test
  void writesTheReadingCannotFollowAreNotProven() {
    double[] other = new double[4];
    Helper helper = new Helper();
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> {
      Arrays.fill(a, 1);
      return null;
    })).as("a JDK method given the array").isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> {
      System.arraycopy(other, 0, a, 0, 4);
      return null;
    })).isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> {
      java.lang.reflect.Array.setDouble(a, 0, 1);
      return null;
    })).as("reflection").isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> helper.touch(a))).as("a method a subclass may override")
        .isEqualTo(ArrayWrites.UNPROVEN);
    Fn1<double[], Double> inner = a -> a[0];
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> inner.apply(a))).as("a function it was given")
        .isEqualTo(ArrayWrites.UNPROVEN);
  }

  @Test
  void anArrayThatMayEscapeIsNotProven() {
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> stash = a)).as("kept in a field")
        .isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> new Object[] {a})).as("stored in an array of objects")
        .isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> (Runnable & java.io.Serializable) () -> a[0] = 1))
        .as("captured by a lambda made in the task").isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> "" + a)).as("an object's toString in a concatenation")
        .isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of((Fn1<double[], Object>) a -> new Thread(() -> {}))).isEqualTo(ArrayWrites.UNPROVEN);
  }

  /** Not a lambda: its class's code is not followed. */
  static final class SumFunction implements Fn1<double[], Double> {
    @Override
    public Double invoke(double[] a) {
      return a[0];
    }
  }

  /** An adapter of the user's: it runs code of its own around the function it adapts. */
  static final class WritingAdapter implements Fn1<double[], Double>, FunctionAdapter {
    private final Fn1<double[], Double> adapted;

    WritingAdapter(Fn1<double[], Double> adapted) {
      this.adapted = adapted;
    }

    @Override
    public Double invoke(double[] a) throws Exception {
      a[0] = 42;
      return adapted.invoke(a);
    }

    @Override
    public Object adaptedFunction() {
      return adapted;
    }
  }

  @Test
  void onlyLambdasAreFollowedAndAnotherAdaptersCodeIsNotSkipped() {
    assertThat(ArrayWrites.of(new SumFunction())).isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of(new WritingAdapter(a -> a[0]))).isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.of(null)).isEqualTo(ArrayWrites.UNPROVEN);
  }

  @Test
  void aTaskIsProvenOnlyWithPlainArgumentsAndCapturedValues() {
    int from = 2;
    double[] weights = {1, 2};
    Fn1<double[], Double> plain = a -> sum(a, from, from + weights.length) * weights[0];
    assertThat(ArrayWrites.ofTask(plain, java.util.List.of(new double[4]))).isZero();
    assertThat(ArrayWrites.ofTask(plain, java.util.Arrays.asList(null, "s", 1L, 'c', true))).isZero();
    assertThat(ArrayWrites.ofTask(plain, java.util.List.of(new Helper()))).as("an argument of the user's class")
        .isEqualTo(ArrayWrites.UNPROVEN);
    assertThat(ArrayWrites.ofTask(plain, java.util.List.of((Object) new double[][] {{1}}))).as("an array of arrays")
        .isEqualTo(ArrayWrites.UNPROVEN);
    java.util.List<Double> list = java.util.List.of(1.0);
    Fn1<double[], Double> capturesAList = a -> a[0] + list.size();
    assertThat(ArrayWrites.ofTask(capturesAList, java.util.List.of(new double[4]))).as("a captured object")
        .isEqualTo(ArrayWrites.UNPROVEN);
  }

  @Test
  void aMethodReferenceIsFollowedToItsMethod() {
    Fn1<double[], Double> first = ArrayWritesTest::first;
    assertThat(ArrayWrites.of(first)).isZero();
    Fn1<double[], double[]> copy = double[]::clone;
    assertThat(ArrayWrites.of(copy)).isZero();
    Fn1<double[], Object> fill = ArrayWritesTest::fillOnes;
    assertThat(writesDoubles(fill)).isTrue();
  }

  static double first(double[] a) {
    return a[0];
  }

  static Object fillOnes(double[] a) {
    for (int i = 0; i < a.length; i++) {
      a[i] = 1;
    }
    return a;
  }
}
