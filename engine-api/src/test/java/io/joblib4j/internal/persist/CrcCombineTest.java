package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class CrcCombineTest {
  private static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  @Test
  void theCrcOfBlocksCombinedIsTheCrcOfTheWhole() {
    SplittableRandom random = new SplittableRandom(39);
    for (int block : new int[] {1, 7, 64, 4096}) {
      byte[] b = new byte[block * 5 + random.nextInt(block) + 1];
      random.nextBytes(b);
      CrcCombine combine = new CrcCombine(block);
      int whole = crc(b, 0, block);
      int at = block;
      for (; at + block <= b.length; at += block) {
        whole = combine.append(whole, crc(b, at, block));
      }
      whole = CrcCombine.append(whole, crc(b, at, b.length - at), b.length - at);
      assertThat(whole).as("blocks of " + block).isEqualTo(crc(b, 0, b.length));
    }
  }

  @Test
  void appendingNothingChangesNothing() {
    assertThat(CrcCombine.append(0x1234_5678, 0, 0)).isEqualTo(0x1234_5678);
  }
}
