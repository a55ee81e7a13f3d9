package io.joblib4j.spark.connect;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spark.stages.StageCache;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * StageCache on a real Spark Connect session, in a JVM with only the Connect client: refused at
 * once, naming what the client lacks, before any Spark class the client does not have is needed.
 */
class StageCacheOnConnectIT {
  @Test
  void aStageCacheOnAConnectSessionIsRefusedAtOnceNamingWhatIsMissing(@TempDir Path dir) {
    assertThatThrownBy(() -> StageCache.at(ConnectServer.session(), dir.toString()))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Spark Connect session (" + ConnectLine.SESSION_CLASS + ")")
        .hasMessageContaining("analyzed logical plan")
        .hasMessageContaining("SparkContext")
        .hasMessageContaining("Memory");
    assertThatThrownBy(() -> StageCache.builder(ConnectServer.session(), dir.toString()).format("orc").build())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
