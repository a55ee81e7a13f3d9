package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SparkVersionTest {
  @Test
  void acceptsTheSparkLinesTheBundleIsTestedOn() {
    assertThat(SparkVersion.problem("4.0.4", "2.13.16")).isEmpty();
    assertThat(SparkVersion.problem("4.1.3", "2.13.17")).isEmpty();
    assertThat(SparkVersion.problem("4.2.0", "2.13.18")).isEmpty();
    assertThat(SparkVersion.problem("4.2.1-SNAPSHOT", "2.13.18")).isEmpty();
  }

  @Test
  void refusesSpark3WithTheVersionsFoundAndWhatToDo() {
    assertThat(SparkVersion.problem("3.5.3", "2.12.18")).hasValueSatisfying(m -> assertThat(m)
        .contains("Spark 3.5.3").contains("Scala 2.12.18").contains("Spark 4.0, 4.1 and 4.2")
        .contains("Scala 2.13").contains("Spark 4"));
    assertThat(SparkVersion.problem("3.5.3", "2.13.8")).isPresent();
  }

  @Test
  void refusesAScalaOtherThan213EvenOnSpark4() {
    assertThat(SparkVersion.problem("4.2.0", "3.3.4")).hasValueSatisfying(m -> assertThat(m).contains("Scala 3.3.4"));
  }

  @Test
  void aNewerSpark4LineIsOnlyUntested() {
    assertThat(SparkVersion.problem("4.3.0", "2.13.18")).isEmpty();
    assertThat(SparkVersion.untested("4.3.0")).isTrue();
    assertThat(SparkVersion.untested("4.2.0")).isFalse();
    assertThat(SparkVersion.untested("5.0.0")).isTrue();
  }

  @Test
  void anUnreadableVersionIsNotRefused() {
    assertThat(SparkVersion.problem("", "2.13.18")).isEmpty();
    assertThat(SparkVersion.problem("custom-build", "2.13.18")).isEmpty();
  }

  @Test
  void theRunningSparkOfThisBuildPasses() {
    SparkVersion.requireSupported();
    assertThat(SparkVersion.running()).startsWith("4.");
  }

  @Test
  void requireSupportedThrowsTheProblem() {
    assertThatThrownBy(() -> SparkVersion.requireSupported("3.4.1", "2.12.17"))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("Spark 3.4.1");
  }
}
