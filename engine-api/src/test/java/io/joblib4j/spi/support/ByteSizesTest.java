package io.joblib4j.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSizesTest {
  @Test
  void parsesJoblibsSuffixesAsPowersOf1024() {
    assertThat(ByteSizes.parse("500")).isEqualTo(500);
    assertThat(ByteSizes.parse("2K")).isEqualTo(2048);
    assertThat(ByteSizes.parse("1M")).isEqualTo(1 << 20);
    assertThat(ByteSizes.parse("10G")).isEqualTo(10L << 30);
    assertThat(ByteSizes.parse(" 1.5m ")).isEqualTo(3 << 19);
    assertThat(ByteSizes.parse("64KiB")).isEqualTo(64 << 10);
  }

  @Test
  void rejectsWhatIsNotASize() {
    for (String bad : new String[] {"", "ten", "-1M", "1X", "1 0M"}) {
      assertThatThrownBy(() -> ByteSizes.parse(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not a byte size");
    }
  }
}
