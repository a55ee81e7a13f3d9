package io.joblib4j.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The store path rules, checked by hand on every cache hit: what they accept and what they refuse. */
class StorePathsTest {
  @ParameterizedTest
  @ValueSource(strings = {"", "a", "f.Name-1_x/0123456789abcdef0123456789abcdef/output.jl4j", ".tmp-x", "...",
      "a..b/.c"})
  void validPathsAreReturnedAsTheyAre(String path) {
    assertThat(StorePaths.check(path)).isSameAs(path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/a", "a/", "a//b", ".", "..", "a/./b", "a/../b", "..//x", "a b", "a\\b", "é", "a/b:c",
      "a/b\u0000"})
  void pathsOutsideTheRulesAreRefused(String path) {
    assertThatThrownBy(() -> StorePaths.check(path)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid store path");
  }

  @Test
  void aSegmentIsAtMost255Characters() {
    assertThat(StorePaths.check("x".repeat(255) + "/y")).hasSize(257);
    assertThatThrownBy(() -> StorePaths.check("x".repeat(256))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nullIsRefused() {
    assertThatThrownBy(() -> StorePaths.check(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StorePaths.checkSegment(null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aSegmentIsOneNameWithoutSlashes() {
    assertThat(StorePaths.checkSegment("abc")).isEqualTo("abc");
    assertThatThrownBy(() -> StorePaths.checkSegment("a/b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StorePaths.checkSegment("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StorePaths.checkSegment("..")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void joinSkipsEmptyPartsAndChecksTheResult() {
    assertThat(StorePaths.join("a", "", null, "b")).isEqualTo("a/b");
    assertThatThrownBy(() -> StorePaths.join("a", "..")).isInstanceOf(IllegalArgumentException.class);
  }
}
