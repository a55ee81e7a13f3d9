package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.LoadOptions;
import io.joblib4j.UnsafeClassException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A thread's Kryo reader is reused by its next loads, and each load still sees only its own
 * options: what one load allowed is not remembered for the next.
 */
class KryoReadersTest {
  /** Neither data nor Serializable: dumped through Kryo. */
  static final class Plain {
    final String name;

    Plain(String name) {
      this.name = name;
    }
  }

  private static byte[] dump(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Persistence.dump(value, out, null, 0);
    return out.toByteArray();
  }

  private static Object load(byte[] file, LoadOptions options) {
    return Persistence.load(new ByteArrayInputStream(file), options);
  }

  @Test
  void aClassOneLoadAllowedIsRefusedToTheNextLoadOnTheSameThread() {
    byte[] file = dump(new Plain("a"));
    LoadOptions allowing = LoadOptions.builder().allow(Plain.class).build();
    for (int round = 0; round < 3; round++) {
      assertThat(((Plain) load(file, allowing)).name).isEqualTo("a");
      assertThatThrownBy(() -> load(file, LoadOptions.defaults())).isInstanceOf(UnsafeClassException.class)
          .hasMessageContaining(Plain.class.getName());
    }
  }

  @Test
  void aRefusedClassDoesNotSpoilTheReaderForTheNextLoad() {
    byte[] file = dump(new Plain("b"));
    assertThatThrownBy(() -> load(file, LoadOptions.defaults())).isInstanceOf(UnsafeClassException.class);
    assertThat(((Plain) load(file, LoadOptions.builder().allow(Plain.class).build())).name).isEqualTo("b");
  }
}
