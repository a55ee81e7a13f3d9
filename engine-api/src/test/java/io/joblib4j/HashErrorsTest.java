package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link Joblib#hash} throws for a value it cannot hash: a public type, with the path to it. */
class HashErrorsTest {
  record Holder(String name, Object worker) {}

  @Test
  void anUnhashableValueThrowsThePublicExceptionNamingThePathToIt() {
    Throwable e = catchThrowable(() -> Joblib.hash(List.of("a", new Holder("h", new Thread()))));
    // the public type (it was io.joblib4j.internal.hash's), still an IllegalArgumentException
    assertThat(e.getClass().getName()).isEqualTo("io.joblib4j.UnhashableValueException");
    assertThat(e).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cannot hash [1] .worker: it is a java.lang.Thread");
    assertThat(((UnhashableValueException) e).path()).containsExactly("[1]", ".worker");
    assertThat(((UnhashableValueException) e).problem()).startsWith("it is a java.lang.Thread");
  }
}
