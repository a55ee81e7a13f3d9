package io.joblib4j.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.bundle.Bundle;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every class, method and field the bundle refers to exists in this Spark line's jars, read from
 * the class files: code paths no test runs are covered too.
 */
class BundleLinkageIT {
  @Test
  void everyReferenceOfTheBundleResolvesOnThisSparkLine() throws IOException {
    List<String> problems = Bundle.unresolvedOn(Bundle.sparkClasspath());
    assertThat(problems).as("references the bundle (built against a newer Spark) makes that Spark "
        + System.getProperty("bundle.sparkVersion") + " cannot satisfy").isEmpty();
  }
}
