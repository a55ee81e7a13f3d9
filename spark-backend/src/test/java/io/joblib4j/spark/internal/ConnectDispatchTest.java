package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import io.joblib4j.spark.LocalSpark;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendProvider;
import io.joblib4j.spi.Backends;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Classic and Connect sessions are told apart by class name; the classic path never goes to Connect. */
class ConnectDispatchTest {
  @Test
  void aConnectSessionIsRecognizedByItsClassNameAndAClassicOneIsNot() {
    assertThat(ConnectDispatch.isConnect(new org.apache.spark.sql.connect.SparkSession())).isTrue();
    assertThat(ConnectDispatch.isConnect(LocalSpark.session())).isFalse();
  }

  @Test
  void aConnectSessionWithoutTheConnectModuleIsRefusedNamingTheModuleAndTheFixes() {
    assertThatThrownBy(() -> ConnectDispatch.backendOn(new org.apache.spark.sql.connect.SparkSession(), Map.of()))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Spark Connect")
        .hasMessageContaining("org.apache.spark.sql.connect.SparkSession")
        .hasMessageContaining("joblib4j-spark-connect_2.13")
        .hasMessageContaining("joblib4j-spark-4-bundle_2.13")
        .hasMessageContaining("single-user cluster")
        .hasMessageContaining("spark.api.mode=classic")
        .hasMessageContaining("backend(\"threads\")");
  }

  @Test
  void whatNeedsASparkContextNamesTheFeatureConnectAndTheFixes() {
    assertThat(ConnectDispatch.needsSparkContext("ChunkedArray on executors"))
        .hasMessageStartingWith("ChunkedArray on executors needs a SparkContext")
        .hasMessageContaining("Spark Connect")
        .hasMessageContaining("single-user cluster")
        .hasMessageContaining("spark.api.mode=classic")
        .hasMessageContaining("backend(\"threads\")");
  }

  @Test
  void theClassicPathNeverAsksTheConnectPath() {
    LocalSpark.session();
    Backends.register(new BackendProvider() {
      @Override
      public String name() {
        return ConnectDispatch.CONNECT_BACKEND;
      }

      @Override
      public Backend create(Map<String, Object> options) {
        throw new AssertionError("the classic path asked for the Connect path");
      }
    });
    try (Parallel p = Parallel.builder().backend("spark").nJobs(2).build()) {
      assertThat(p.map((Integer x) -> x + 1, List.of(1, 2, 3))).containsExactly(2, 3, 4);
      assertThat(ConnectDispatch.connectInUse()).isFalse();
    } finally {
      Backends.unregister(ConnectDispatch.CONNECT_BACKEND);
    }
  }
}
