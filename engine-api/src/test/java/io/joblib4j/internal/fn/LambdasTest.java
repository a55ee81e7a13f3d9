package io.joblib4j.internal.fn;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.FunctionAdapter;
import org.junit.jupiter.api.Test;

class LambdasTest {
  static int twice(int x) {
    return 2 * x;
  }

  /** What a bridge from another language's function type looks like. */
  record Adapter(Object adaptedFunction) implements Fn1<Integer, Integer>, FunctionAdapter {
    @Override
    @SuppressWarnings("unchecked")
    public Integer invoke(Integer x) throws Exception {
      return ((Fn1<Integer, Integer>) adaptedFunction).invoke(x);
    }
  }

  @Test
  void anAdapterIsNamedAfterTheFunctionItAdapts() {
    Fn1<Integer, Integer> twice = LambdasTest::twice;
    assertThat(Lambdas.describe(new Adapter(twice))).isEqualTo("LambdasTest.twice");
    assertThat(Lambdas.describe(new Adapter(new Adapter(twice)))).isEqualTo("LambdasTest.twice");
    assertThat(Lambdas.unwrap(new Adapter(new Adapter(twice)))).isSameAs(twice);
  }

  @Test
  void anAdapterOfNothingIsItself() {
    Adapter empty = new Adapter(null);
    assertThat(Lambdas.unwrap(empty)).isSameAs(empty);
    assertThat(Lambdas.describe(empty)).isEqualTo("LambdasTest.Adapter");
  }
}
