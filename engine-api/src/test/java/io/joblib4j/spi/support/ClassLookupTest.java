package io.joblib4j.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClassLookupTest {
  private final ClassLoader loader = ClassLookupTest.class.getClassLoader();

  @Test
  void findsAClassOnTheClassPathAndNotOneThatIsAbsent() {
    assertThat(ClassLookup.isPresent("io.joblib4j.spi.support.ByteSizes", loader)).isTrue();
    assertThat(ClassLookup.isPresent("org.example.NoSuchClass", loader)).isFalse();
  }

  @Test
  void anAbsentClassHasNoVersion() {
    assertThat(ClassLookup.implementationVersion("org.example.NoSuchClass", loader)).isEmpty();
  }
}
