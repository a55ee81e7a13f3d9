package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.spark.internal.ConnectClientLine.Client;
import org.junit.jupiter.api.Test;

/** Which Connect client each line's jar serves, and what the refusal of another one names. */
class ConnectClientLineTest {
  @Test
  void eachLineWithAConnectPathServesItsOwnClient() {
    assertThat(ConnectClientLine.problem(new Client("4", "4.2.0"), "2.13.16", "4", "2.13")).isEmpty();
    assertThat(ConnectClientLine.problem(new Client("3.5", "3.5.0"), "2.12.18", "3.5", "2.12")).isEmpty();
  }

  @Test
  void aSparkThreeFiveScalaTwoTwelveClientOnTheSparkFourJarIsPointedAtTheThreeFiveBundle() {
    assertThat(ConnectClientLine.problem(new Client("3.5", "3.5.0"), "2.12.18", "4", "2.13"))
        .hasValueSatisfying(m -> assertThat(m)
            .contains("joblib4j-spark-backend_2.13, also in joblib4j-spark-4-bundle_2.13")
            .contains("Spark 3.5.0 Spark Connect client on Scala 2.12")
            .contains("its session is org.apache.spark.sql.SparkSession")
            .contains("Use joblib4j-spark-3.5-bundle_2.12 instead")
            .contains("joblib4j-spark-connect-3.5_2.12 beside joblib4j-spark-backend-3.5_2.12")
            .contains("spark.api.mode=classic").contains("backend(\"threads\")"));
  }

  @Test
  void aSparkFourClientOnTheThreeFiveJarIsPointedAtTheSparkFourBundle() {
    assertThat(ConnectClientLine.problem(new Client("4", "4.1.3"), "2.13.16", "3.5", "2.12"))
        .hasValueSatisfying(m -> assertThat(m).contains("joblib4j-spark-backend-3.5_2.12")
            .contains("Spark 3.5 Connect clients on Scala 2.12")
            .contains("its session is org.apache.spark.sql.connect.SparkSession")
            .contains("Use joblib4j-spark-4-bundle_2.13 instead"));
  }

  @Test
  void aThreeFiveClientOnScalaTwoThirteenIsRefusedOnEveryLineSayingTheRegistryServesNoSuchClient() {
    for (String[] built : new String[][] {{"3.5", "2.13"}, {"3.5", "2.12"}, {"4", "2.13"}}) {
      assertThat(ConnectClientLine.problem(new Client("3.5", "3.5.4"), "2.13.8", built[0], built[1]))
          .as("built for %s/%s", built[0], built[1])
          .hasValueSatisfying(m -> assertThat(m)
              .contains("No joblib4j Connect path is built for Spark 3.5 with Scala 2.13")
              .contains("Maven Central").contains("serves no spark-connect-client-jvm_2.13 for Spark 3.5")
              .contains("joblib4j-spark-3.5-bundle_2.12").contains("joblib4j-spark-4-bundle_2.13"));
    }
    assertThat(ConnectClientLine.problem(new Client("3.5", "3.5.4"), "2.13.8", "3.5", "2.13"))
        .hasValueSatisfying(m -> assertThat(m).contains("has no Spark Connect path on Spark 3.5 with Scala 2.13"));
  }

  @Test
  void withNoClientInSightOnlyTheLineWithoutAConnectPathRefusesSayingWhy() {
    assertThat(ConnectClientLine.noConnectPath("4", "2.13")).isEmpty();
    assertThat(ConnectClientLine.noConnectPath("3.5", "2.12")).isEmpty();
    assertThat(ConnectClientLine.noConnectPath("3.5", "2.13")).hasValueSatisfying(m -> assertThat(m)
        .contains("joblib4j-spark-backend-3.5_2.13").contains("has no Spark Connect path on Spark 3.5 with Scala 2.13")
        .contains("serves no spark-connect-client-jvm_2.13 for Spark 3.5").contains("joblib4j-spark-3.5-bundle_2.12"));
  }

  @Test
  void aClientOlderThanThreeFiveIsRefusedAsUnsupported() {
    assertThat(ConnectClientLine.problem(new Client("3.4", "3.4.1"), "2.12.17", "3.5", "2.12"))
        .hasValueSatisfying(m -> assertThat(m).contains("Spark 3.4.1 Spark Connect client")
            .contains("older than Spark 3.5 are not supported"));
  }
}
