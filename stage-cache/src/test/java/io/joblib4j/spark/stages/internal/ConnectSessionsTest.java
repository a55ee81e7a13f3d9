package io.joblib4j.spark.stages.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spark.stages.TestSpark;
import org.apache.spark.sql.connect.FakeConnectSession;
import org.junit.jupiter.api.Test;

/** A Spark Connect session is refused at once, naming what the stage cache needs and Connect lacks. */
class ConnectSessionsTest {
  @Test
  void aConnectSessionIsRefusedNamingWhatIsMissing() {
    assertThatThrownBy(() -> ConnectSessions.refuse(new FakeConnectSession()))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Spark Connect")
        .hasMessageContaining("analyzed logical plan")
        .hasMessageContaining("SparkContext");
    assertThatCode(() -> ConnectSessions.refuse(TestSpark.session())).doesNotThrowAnyException();
  }
}
