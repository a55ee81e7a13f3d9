package io.joblib4j.spark.connect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class InMemoryClassesTest {
  static final class Outer {
    static final class Member {}
  }

  @Test
  void aLambdasClassFileIsItsHosts() {
    IntSupplier lambda = () -> 1;
    assertThat(lambda.getClass().getName()).contains("/"); // a hidden class
    assertThat(InMemoryClasses.classFile(lambda.getClass()))
        .isEqualTo("io/joblib4j/spark/connect/internal/InMemoryClassesTest.class");
  }

  @Test
  void aClassComesWithItsMemberClassesAsItsLoaderServesThem() {
    assertThat(InMemoryClasses.withMembers(Outer.class)).containsOnlyKeys(
        "io/joblib4j/spark/connect/internal/InMemoryClassesTest$Outer.class",
        "io/joblib4j/spark/connect/internal/InMemoryClassesTest$Outer$Member.class");
    assertThat(InMemoryClasses.withMembers(Outer.class).values())
        .as("class files").allMatch(b -> b[0] == (byte) 0xCA && b[1] == (byte) 0xFE);
  }

  @Test
  void theJdksClassesAreNeverSent() {
    assertThat(InMemoryClasses.withMembers(String.class)).isEmpty();
  }
}
