package io.joblib4j.spark.connect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.spark.connect.internal.ConnectClientVersion.Client;
import org.junit.jupiter.api.Test;

/** Which Connect client each line's Connect path serves, and what the refusal of another one names. */
class ConnectClientVersionTest {
  @Test
  void eachLinesConnectPathServesItsOwnClientAndThisJarIsOneOfThem() {
    assertThat(ConnectClientVersion.problem(new Client("4", "4.2.0"), "2.13.16", "4", "2.13")).isEmpty();
    assertThat(ConnectClientVersion.problem(new Client("3.5", "3.5.0"), "2.12.18", "3.5", "2.12")).isEmpty();
    assertThat(ConnectClientVersion.built(ConnectSessions.LINE, ConnectSessions.SCALA)).isTrue();
  }

  @Test
  void theClientThisTestRunsWithIsTheOneThisJarWasBuiltFor() {
    assertThat(ConnectClientVersion.running(getClass().getClassLoader())).hasValueSatisfying(c ->
        assertThat(c.line()).isEqualTo(ConnectSessions.LINE));
    ConnectClientVersion.requireSupported();
  }

  @Test
  void aThreeFiveScalaTwoTwelveClientOnTheSparkFourJarIsPointedAtTheThreeFiveBundle() {
    assertThat(ConnectClientVersion.problem(new Client("3.5", "3.5.0"), "2.12.18", "4", "2.13"))
        .hasValueSatisfying(m -> assertThat(m)
            .contains("joblib4j-spark-connect_2.13, also in joblib4j-spark-4-bundle_2.13")
            .contains("Spark 3.5.0 Spark Connect client (spark-connect-client-jvm_2.12")
            .contains("Use joblib4j-spark-3.5-bundle_2.12 instead")
            .contains("joblib4j-spark-connect-3.5_2.12 beside joblib4j-spark-backend-3.5_2.12"));
  }

  @Test
  void aSparkFourClientOnTheThreeFiveJarIsPointedAtTheSparkFourBundle() {
    assertThat(ConnectClientVersion.problem(new Client("4", "4.0.4"), "2.13.16", "3.5", "2.12"))
        .hasValueSatisfying(m -> assertThat(m).contains("joblib4j-spark-connect-3.5_2.12")
            .contains("org.apache.spark.sql.connect.SparkSession")
            .contains("Use joblib4j-spark-4-bundle_2.13 instead"));
  }

  @Test
  void aThreeFiveClientOnScalaTwoThirteenIsRefusedSayingTheRegistryServesNoSuchClient() {
    assertThat(ConnectClientVersion.problem(new Client("3.5", "3.5.4"), "2.13.8", "3.5", "2.12"))
        .hasValueSatisfying(m -> assertThat(m)
            .contains("No joblib4j Connect path is built for Spark 3.5 with Scala 2.13")
            .contains("serves no spark-connect-client-jvm_2.13 for Spark 3.5")
            .contains("joblib4j-spark-3.5-bundle_2.12").contains("joblib4j-spark-4-bundle_2.13"));
  }

  @Test
  void noClientOrAnOlderOneIsRefusedSayingWhatToUse() {
    assertThat(ConnectClientVersion.problem(null, "2.13.16", "4", "2.13"))
        .hasValueSatisfying(m -> assertThat(m).contains("no Spark Connect client (spark-connect-client-jvm)"));
    assertThat(ConnectClientVersion.problem(new Client("3.4", "3.4.1"), "2.12.17", "3.5", "2.12"))
        .hasValueSatisfying(m -> assertThat(m).contains("older than Spark 3.5 are not supported"));
  }
}
