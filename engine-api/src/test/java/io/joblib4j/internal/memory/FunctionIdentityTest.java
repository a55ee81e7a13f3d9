package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.FunctionAdapter;
import java.util.List;
import org.junit.jupiter.api.Test;

class FunctionIdentityTest {
  static int twice(int x) {
    return 2 * x;
  }

  static final class Scale implements Fn1<Integer, Integer> {
    final int factor;

    Scale(int factor) {
      this.factor = factor;
    }

    @Override
    public Integer invoke(Integer x) {
      return x * factor;
    }
  }

  @Test
  void aMethodReferenceIsIdentifiedByItsImplementationMethod() {
    FunctionIdentity id = FunctionIdentity.of((Fn1<Integer, Integer>) FunctionIdentityTest::twice, 1);
    assertThat(id.id()).isEqualTo("io.joblib4j.internal.memory.FunctionIdentityTest#twice(I)I");
    assertThat(id.name()).isEqualTo("FunctionIdentityTest.twice");
    assertThat(id.folder()).startsWith("io.joblib4j.internal.memory.FunctionIdentityTest.twice-");
    assertThat(id.codeVersion()).hasSize(32);
    assertThat(id.captured()).isEmpty();
    assertThat(id.parameterNames()).contains(List.of("x"));
    assertThat(id.lambda()).isFalse();
  }

  @Test
  void aLambdaCarriesItsCapturedValuesAndArgumentNames() {
    int offset = 7;
    Fn2<Integer, Integer, Integer> f = (a, b) -> a + b + offset;
    FunctionIdentity id = FunctionIdentity.of(f, 2);
    assertThat(id.lambda()).isTrue();
    assertThat(id.captured()).containsExactly(7);
    assertThat(id.parameterNames()).contains(List.of("a", "b"));
    assertThat(id.name()).isEqualTo("lambda in FunctionIdentityTest.aLambdaCarriesItsCapturedValuesAndArgumentNames");
  }

  @Test
  void anUnboundInstanceMethodTakesItsReceiverFirst() {
    FunctionIdentity id = FunctionIdentity.of((Fn1<String, Integer>) String::length, 1);
    assertThat(id.id()).isEqualTo("java.lang.String#length()I");
    assertThat(id.parameterNames()).contains(List.of("this"));
  }

  @Test
  void anObjectImplementingTheFunctionIsIdentifiedByItsClassAndFields() {
    FunctionIdentity id = FunctionIdentity.of(new Scale(3), 1);
    assertThat(id.id()).startsWith("io.joblib4j.internal.memory.FunctionIdentityTest$Scale#invoke(");
    assertThat(id.captured()).hasSize(1);
    assertThat(id.codeVersion()).isNotEqualTo(FunctionIdentity.UNKNOWN_VERSION);
  }

  /** A bridge from another language's function type, as joblib4j-scala has. */
  record Adapter(Fn1<Integer, Integer> adaptedFunction) implements Fn1<Integer, Integer>, FunctionAdapter {
    @Override
    public Integer invoke(Integer x) throws Exception {
      return adaptedFunction.invoke(x);
    }
  }

  @Test
  void anAdapterIsIdentifiedAsTheFunctionItAdapts() {
    int offset = 3;
    Fn1<Integer, Integer> lambda = x -> x + offset;
    FunctionIdentity direct = FunctionIdentity.of(lambda, 1);
    FunctionIdentity adapted = FunctionIdentity.of(new Adapter(lambda), 1);
    assertThat(adapted.id()).isEqualTo(direct.id());
    assertThat(adapted.codeVersion()).isEqualTo(direct.codeVersion());
    assertThat(adapted.captured()).containsExactly(3);
    assertThat(adapted.name()).isEqualTo(direct.name());
    assertThat(FunctionIdentity.of(new Adapter(FunctionIdentityTest::twice), 1).id())
        .isEqualTo("io.joblib4j.internal.memory.FunctionIdentityTest#twice(I)I");
  }

  @Test
  void folderNamesCannotLeaveTheStore() {
    for (String hostile : new String[] {"../../etc", "/root", "a b\0c", "..", "....x", "x".repeat(1000), "名前"}) {
      String folder = FunctionIdentity.folderName(hostile, hostile, hostile);
      assertThat(folder).matches("[A-Za-z0-9][A-Za-z0-9._-]{0,140}");
      assertThat(io.joblib4j.spi.support.StorePaths.check(folder)).isEqualTo(folder); // one valid segment
    }
    assertThat(FunctionIdentity.folderName("a.B", "m", "id1")).isNotEqualTo(FunctionIdentity.folderName("a.B", "m", "id2"));
  }
}
