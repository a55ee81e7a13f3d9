package io.joblib4j.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class CountingCrcOutputStreamTest {
  @Test
  void countsAndChecksumsEveryByteItPassesOn() throws IOException {
    byte[] data = "the cache records size and checksum".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream target = new ByteArrayOutputStream();
    CountingCrcOutputStream out = new CountingCrcOutputStream(target);
    out.write(data[0]);
    out.write(data, 1, data.length - 1);

    CRC32C expected = new CRC32C();
    expected.update(data);
    assertThat(target.toByteArray()).isEqualTo(data);
    assertThat(out.bytes()).isEqualTo(data.length);
    assertThat(out.crcHex()).isEqualTo(String.format("%08x", expected.getValue()));
  }

  @Test
  void closeFlushesButLeavesTheStoresStreamOpen() throws IOException {
    boolean[] closed = {false};
    ByteArrayOutputStream target = new ByteArrayOutputStream() {
      @Override
      public void close() {
        closed[0] = true;
      }
    };
    try (CountingCrcOutputStream out = new CountingCrcOutputStream(target)) {
      out.write(1);
    }
    assertThat(closed[0]).isFalse();
    assertThat(target.size()).isEqualTo(1);
  }

  @Test
  void hexIsEightLowerCaseDigits() {
    assertThat(CountingCrcOutputStream.hex(0xABL)).isEqualTo("000000ab");
  }
}
