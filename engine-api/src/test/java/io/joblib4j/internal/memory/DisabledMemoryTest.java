package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.CallResult;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.MemorizedResult;
import io.joblib4j.Memory;
import io.joblib4j.MissingCacheEntryException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** joblib's test_no_memory: a Memory without location computes every time, and the API still works. */
class DisabledMemoryTest {
  @Test
  void aDisabledMemoryAlwaysComputes() {
    AtomicInteger calls = new AtomicInteger();
    Memory memory = new Memory((String) null);
    assertThat(memory.enabled()).isFalse();
    MemoizedFn1<Integer, Integer> f = memory.cache(x -> {
      calls.incrementAndGet();
      return x + 1;
    });
    assertThat(f.apply(1)).isEqualTo(2);
    assertThat(f.apply(1)).isEqualTo(2);
    assertThat(calls.get()).isEqualTo(2);
    assertThat(f.checkCallInCache(1)).isFalse();
    CallResult<Integer> r = f.call(1);
    assertThat(r.value()).isEqualTo(2);
    assertThat(r.metadata()).isNull();
    MemorizedResult<Integer> shelved = f.callAndShelve(5);
    assertThat(shelved.get()).isEqualTo(6);
    assertThat(shelved.metadata()).isEmpty();
    shelved.clear();
    assertThatThrownBy(shelved::get).isInstanceOf(MissingCacheEntryException.class).hasMessageContaining("No value stored");
    f.clear();
    memory.clear();
    assertThat(memory.reduceSize("1K", 1, null)).isZero();
    assertThat(Memory.disabled().toString()).isEqualTo("Memory(location=null)");
  }
}
