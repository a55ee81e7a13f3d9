package io.joblib4j.internal.worker;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Delayed;
import io.joblib4j.fn.Fn2;
import io.joblib4j.spi.worker.ArgumentSharer;
import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.testing.JavaSerialized;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompactEncodingTest {

  @Test
  void taggedValuesRoundTripEveryKindIncludingUnusualOnes() throws Exception {
    Object[] values = {null, 1, -7L, 2.5, 1.5f, true, false, "héllo", "x".repeat(30_000), List.of(1, 2),
        new int[] {3}, 'c', (short) 4};
    Object[] back = JavaSerialized.read(JavaSerialized.bytes(new CompactValues(values)));
    assertThat(back).hasSize(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] instanceof int[] a) {
        assertThat((int[]) back[i]).isEqualTo(a);
      } else {
        assertThat(back[i]).isEqualTo(values[i]);
      }
    }
  }

  @Test
  void aCompactTaskListReadsBackAsTheSameCallsSharingOneFunction() throws Exception {
    Fn2<Integer, String, String> fn = (n, s) -> s.repeat(n);
    List<Delayed<?>> tasks = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      tasks.add(delayed(fn, i, "ab"));
    }
    tasks.add(delayed(() -> "none"));
    @SuppressWarnings("unchecked")
    List<Delayed<?>> back = JavaSerialized.read(JavaSerialized.bytes(new CompactTasks(tasks)));
    assertThat(back).hasSize(6);
    assertThat(back.get(3).call()).isEqualTo("ababab");
    assertThat(back.get(5).call()).isEqualTo("none");
    assertThat(back.get(0).function()).isSameAs(back.get(4).function());
  }

  @Test
  void aTaskBatchIsWrittenCompactlyAndMuchSmaller() throws Exception {
    List<Delayed<?>> tasks = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      tasks.add(delayed(x -> x + 1, i));
    }
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(plain)) {
      o.writeObject(new ArrayList<>(tasks));
    }
    ByteArrayOutputStream compact = new ByteArrayOutputStream();
    ArrayList<Delayed<?>> list = new ArrayList<>(tasks);
    try (WireOutput o = new WireOutput(compact, WireFormat.SAME_CLASS_FILES, null, list, ArgumentSharer.Replacer.NONE)) {
      o.writeObject(list);
    }
    assertThat(compact.size()).isLessThan(plain.size() / 3);
    try (WireInput in = new WireInput(compact.toByteArray(), WireFormat.SAME_CLASS_FILES, getClass().getClassLoader())) {
      @SuppressWarnings("unchecked")
      List<Delayed<?>> back = (List<Delayed<?>>) in.readObject();
      assertThat(back.get(999).call()).isEqualTo(1000);
      assertThat(in.tasksRead()).isEqualTo(1000);
    }
  }
}
