package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SharedArrayFilesTest {

  @Test
  void sharedArrayFilesRoundTripInTheMachinesByteOrder(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    double[] d = new double[1_000_003];
    Arrays.setAll(d, i -> i * 1.25);
    java.nio.file.Path f = dir.resolve("d.bin");
    try (var ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      SharedArrayFiles.write(d, ch);
    }
    assertThat(java.nio.file.Files.size(f)).isEqualTo(8L * d.length);
    assertThat((double[]) SharedArrayFiles.read(f, double.class, d.length)).isEqualTo(d);
  }
}
