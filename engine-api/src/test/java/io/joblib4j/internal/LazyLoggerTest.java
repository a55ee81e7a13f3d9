package io.joblib4j.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LazyLoggerTest {
  @Test
  void givesTheOwnersLoggerAndTheSameOneEachTime() {
    LazyLogger log = LazyLogger.of(LazyLoggerTest.class);
    assertThat(log.get().getName()).isEqualTo(LazyLoggerTest.class.getName());
    assertThat(log.get()).isSameAs(log.get());
  }
}
