package io.joblib4j.spi.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The SPI holds the contracts and finds their implementation the way every provider of joblib4j is
 * found: engine-api's services file names it, and nothing in this package names it.
 */
class WorkerProtocolInstalledTest {

  @Test
  void engineApisProtocolIsFoundThroughItsServicesFile() throws IOException {
    try (InputStream in = WorkerProtocol.class.getClassLoader()
        .getResourceAsStream("META-INF/services/" + WorkerProtocol.class.getName())) {
      assertThat(in).as("engine-api's services file for the worker protocol").isNotNull();
      String named = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      assertThat(WorkerProtocol.installed().getClass().getName()).isEqualTo(named);
    }
  }

  @Test
  void theContractsFactoriesHandOutTheInstalledImplementation() {
    WorkerLoop loop = WorkerLoop.builder("a worker").build();
    BatchCodec codec = BatchCodec.builder().build();
    assertThat(loop.name()).isEqualTo("a worker");
    assertThat(loop.getClass().getPackageName()).isEqualTo(codec.getClass().getPackageName())
        .startsWith("io.joblib4j.internal.");
    codec.close();
  }

  @Test
  void aResetConnectionIsADisconnectAndAnythingElseIsNot() {
    assertThat(WorkerLink.isDisconnect(new SocketException("Connection reset"))).isTrue();
    assertThat(WorkerLoop.isDisconnect(new java.io.StreamCorruptedException("bad frame length 7"))).isFalse();
  }
}
