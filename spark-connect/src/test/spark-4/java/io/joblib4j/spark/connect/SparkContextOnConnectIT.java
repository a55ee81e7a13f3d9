package io.joblib4j.spark.connect;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spark.SparkBackend;
import org.junit.jupiter.api.Test;

/**
 * {@code SparkBackend.sparkContext()} on Spark Connect. In the spark-4 test folder: only the Spark 4
 * client carries a (hollow) {@code SparkContext} class, so only there can a client's code name the
 * method at all; a 3.5 client has no such class to compile a call against.
 */
class SparkContextOnConnectIT {
  @Test
  void theSparkContextOfAConnectBackendIsRefusedNamingConnectAndTheFixes() {
    try (SparkBackend spark = ConnectServer.sparkBackend(ConnectServer.session(), java.util.Map.of())) {
      assertThatThrownBy(spark::sparkContext)
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("needs a SparkContext")
          .hasMessageContaining("Spark Connect")
          .hasMessageContaining("spark.api.mode=classic")
          .hasMessageContaining("single-user cluster")
          .hasMessageContaining("backend(\"threads\")");
    }
  }
}
