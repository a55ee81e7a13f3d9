package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.Parallel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A function that captures {@code this}, whose class keeps the memoized function in a field: the
 * captured object refers back to the function through the field (issue 11 part 2, the plain-Java
 * form of a Scala REPL lambda calling a REPL def).
 */
class CapturedThisTest {
  @TempDir Path dir;
  static final AtomicInteger CALLS = new AtomicInteger();

  /** Keeps its memoized function in a field; {@code this::compute} captures this. */
  static final class Model {
    final double scale;
    final List<String> notes = new ArrayList<>();
    final Memory memory; // hashed as its class: where results are kept is not what they are
    final Parallel parallel = Parallel.builder().nJobs(2).build();
    final MemoizedFn1<Integer, Double> memo;

    Model(Memory memory, double scale) {
      this.scale = scale;
      this.memory = memory;
      this.memo = memory.cache(this::compute);
    }

    double compute(int x) {
      CALLS.incrementAndGet();
      return x * scale;
    }
  }

  @Test
  void aFunctionCapturingAnObjectThatHoldsItsMemoizedSelfIsCached() {
    Memory memory = Memory.builder(dir).verbose(0).build();
    Model m = new Model(memory, 2.0);
    assertThat(m.memo.apply(3)).isEqualTo(6.0);
    assertThat(m.memo.apply(3)).isEqualTo(6.0);
    assertThat(CALLS.get()).isEqualTo(1);
    // another instance with the same state finds the entry: the key is stable
    Model same = new Model(memory, 2.0);
    assertThat(same.memo.apply(3)).isEqualTo(6.0);
    assertThat(CALLS.get()).isEqualTo(1);
    // a different state is a different key
    Model other = new Model(memory, 5.0);
    assertThat(other.memo.apply(3)).isEqualTo(15.0);
    assertThat(CALLS.get()).isEqualTo(2);
  }

  /** Holds something no hash can read, in a field its function does not need. */
  static final class Service {
    final int base = 10;
    final Thread worker = new Thread(() -> { });
    MemoizedFn1<Integer, Integer> memo;

    int add(int x) {
      return x + base;
    }
  }

  static final class TransientService {
    final int base = 10;
    final transient Thread worker = new Thread(() -> { });
    MemoizedFn1<Integer, Integer> memo;

    int add(int x) {
      return x + base;
    }
  }

  @Test
  void anUnhashableCapturedFieldIsNamedWithItsPathAndTheFix() {
    Memory memory = Memory.builder(dir).verbose(0).build();
    Service s = new Service();
    s.memo = memory.cache(s::add);
    assertThatThrownBy(() -> s.memo.apply(1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("captured arg 0 (this) .worker")
        .hasMessageContaining("java.lang.Thread")
        .hasMessageContaining("transient")
        .hasMessageContaining("argument");
    TransientService t = new TransientService();
    t.memo = memory.cache(t::add);
    assertThat(t.memo.apply(1)).isEqualTo(11);
  }
}
