package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The same suite runs on every line's build: the jar's own line is passed in where it matters. */
class SparkVersionTest {
  @Test
  void acceptsEverySparkOfTheLineTheJarWasBuiltFor() {
    assertThat(SparkVersion.problem("4.0.4", "2.13.16", "4", "2.13")).isEmpty();
    assertThat(SparkVersion.problem("4.1.3", "2.13.17", "4", "2.13")).isEmpty();
    assertThat(SparkVersion.problem("4.2.0", "2.13.18", "4", "2.13")).isEmpty();
    assertThat(SparkVersion.problem("4.2.1-SNAPSHOT", "2.13.18", "4", "2.13")).isEmpty();
    assertThat(SparkVersion.problem("3.5.9", "2.12.18", "3.5", "2.12")).isEmpty();
    assertThat(SparkVersion.problem("3.5.0", "2.12.17", "3.5", "2.12")).isEmpty();
    assertThat(SparkVersion.problem("3.5.2", "2.13.8", "3.5", "2.13")).isEmpty();
  }

  @Test
  void aSpark4JarOnSpark35NamesThe35BundleOfTheRunningScala() {
    assertThat(SparkVersion.problem("3.5.3", "2.12.18", "4", "2.13")).hasValueSatisfying(m -> assertThat(m)
        .contains("Spark 3.5.3").contains("Scala 2.12.18")
        .contains("built for Spark 4.0, 4.1 and 4.2 with Scala 2.13")
        .contains("joblib4j-spark-3.5-bundle_2.12").contains("joblib4j-spark-backend-3.5_2.12"));
    assertThat(SparkVersion.problem("3.5.3", "2.13.8", "4", "2.13")).hasValueSatisfying(m -> assertThat(m)
        .contains("joblib4j-spark-3.5-bundle_2.13"));
  }

  @Test
  void aSpark35JarOnSpark4NamesTheSpark4Bundle() {
    assertThat(SparkVersion.problem("4.1.3", "2.13.17", "3.5", "2.12")).hasValueSatisfying(m -> assertThat(m)
        .contains("Spark 4.1.3").contains("built for Spark 3.5 with Scala 2.12")
        .contains("joblib4j-spark-4-bundle_2.13").contains("joblib4j-spark-backend_2.13"));
  }

  @Test
  void theOtherScalaOfTheSameLineNamesThatScalasJar() {
    assertThat(SparkVersion.problem("3.5.9", "2.13.8", "3.5", "2.12")).hasValueSatisfying(m -> assertThat(m)
        .contains("Scala 2.13.8").contains("joblib4j-spark-3.5-bundle_2.13"));
    assertThat(SparkVersion.problem("3.5.9", "2.12.18", "3.5", "2.13")).hasValueSatisfying(m -> assertThat(m)
        .contains("joblib4j-spark-3.5-bundle_2.12"));
  }

  @Test
  void aSparkOrScalaNoJarIsBuiltForSaysWhatIsSupported() {
    assertThat(SparkVersion.problem("3.4.1", "2.12.17", "3.5", "2.12")).hasValueSatisfying(m -> assertThat(m)
        .contains("No joblib4j jar is built for Spark 3.4.1 with Scala 2.12.17")
        .contains("Spark 3.5 (Scala 2.12 or 2.13) and Spark 4.0, 4.1 and 4.2 (Scala 2.13)")
        .contains("backend(\"threads\")").doesNotContain("joblib4j-spark-3.4"));
    assertThat(SparkVersion.problem("4.2.0", "3.3.4", "4", "2.13")).hasValueSatisfying(m -> assertThat(m)
        .contains("No joblib4j jar is built for Spark 4.2.0 with Scala 3.3.4"));
    assertThat(SparkVersion.problem("4.0.4", "2.12.18", "4", "2.13")).hasValueSatisfying(m -> assertThat(m)
        .contains("No joblib4j jar is built for Spark 4.0.4 with Scala 2.12.18"));
  }

  @Test
  void aNewerSpark4LineIsOnlyUntested() {
    assertThat(SparkVersion.problem("4.3.0", "2.13.18", "4", "2.13")).isEmpty();
    assertThat(SparkVersion.untested("4.3.0")).isTrue();
    assertThat(SparkVersion.untested("4.2.0")).isFalse();
    assertThat(SparkVersion.untested("3.5.9")).isFalse();
    assertThat(SparkVersion.untested("5.0.0")).isTrue();
  }

  @Test
  void anUnreadableVersionIsNotRefused() {
    assertThat(SparkVersion.problem("", "2.13.18", "4", "2.13")).isEmpty();
    assertThat(SparkVersion.problem("custom-build", "2.13.18", "4", "2.13")).isEmpty();
    assertThat(SparkVersion.problem("3.5.9", "", "3.5", "2.12")).isEmpty();
  }

  @Test
  void theRunningSparkOfThisBuildPasses() {
    SparkVersion.requireSupported();
    assertThat(SparkVersion.running()).startsWith(BuiltForSpark.LINE + ".");
    assertThat(scala.util.Properties.versionNumberString()).startsWith(BuiltForScala.BINARY + ".");
  }

  @Test
  void requireSupportedThrowsTheProblem() {
    assertThatThrownBy(() -> SparkVersion.requireSupported("3.4.1", "2.12.17"))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("Spark 3.4.1");
  }
}
