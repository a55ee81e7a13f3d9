package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory-mapped load checks the array data against its CRC32C as a heap load does, at most once
 * per version of a file in a JVM, unless told not to (issue 19.1).
 */
class MappedLoadVerificationTest {
  static final int FLIPS = 2_500;
  private static final int N = 8192;

  @TempDir Path dir;

  private Path dumpedRamp(String name) {
    double[] d = new double[N];
    for (int i = 0; i < N; i++) {
      d[i] = i;
    }
    Path file = dir.resolve(name);
    Joblib.dump(NDArray.of(d, N), file);
    return file;
  }

  /** Flips the bits of {@code mask} in the byte at {@code at}, in place. */
  private static void flipInPlace(Path file, long at, int mask) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ mask)).rewind();
      ch.write(b, at);
    }
  }

  /** A byte of element N - 100: the data blob's payload starts at 64 (file header, record header). */
  private static long dataByte(Path file) {
    return 64 + 8L * (N - 100) + 6;
  }

  @Test
  void aFlippedDataByteFailsAMappedLoadInEveryModeAsItFailsAHeapLoad() throws IOException {
    for (MmapMode mode : MmapMode.values()) {
      Path file = dumpedRamp("flip-" + mode + ".jl4j");
      flipInPlace(file, dataByte(file), 0x10);
      assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(CorruptFileException.class);
      assertThatThrownBy(() -> Joblib.load(file, mode)).as(mode.toString())
          .isInstanceOf(CorruptFileException.class).hasMessageContaining(file.toString())
          .hasMessageContaining("CRC32C");
    }
  }

  @Test
  void everyRandomFlipOfAMappedArrayFileIsDetected() throws IOException {
    Path file = dumpedRamp("random.jl4j");
    long size = Files.size(file);
    SplittableRandom random = new SplittableRandom(19);
    int detected = 0;
    for (int i = 0; i < FLIPS; i++) {
      long at = random.nextLong(size);
      int mask = 1 << random.nextInt(8);
      flipInPlace(file, at, mask);
      try {
        Joblib.load(file, i % 2 == 0 ? MmapMode.READ_ONLY : MmapMode.COPY_ON_WRITE);
      } catch (CorruptFileException expected) {
        detected++;
      }
      flipInPlace(file, at, mask);
    }
    assertThat(detected).isEqualTo(FLIPS);
    NDArray intact = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(intact.getDouble(N - 1)).isEqualTo(N - 1);
  }

  @Test
  void aFileIsVerifiedOncePerVersionAndARewrittenFileIsCheckedAgain() throws IOException {
    Path file = dumpedRamp("once.jl4j");
    FileTime old = FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS));
    Files.setLastModifiedTime(file, old);
    NDArray first = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(first.getDouble(N - 100)).isEqualTo(N - 100);

    // changed in place with its modification time put back: the same version as far as anyone can
    // tell without reading the data, so it is not read again (this is what keeps repeated maps cheap)
    flipInPlace(file, dataByte(file), 0x10);
    Files.setLastModifiedTime(file, old);
    NDArray unverified = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(unverified.getDouble(N - 100)).isNotEqualTo(N - 100);

    // the same bytes written anew and renamed into place (a new file, same size and time): checked
    Path copy = dir.resolve("copy");
    Files.copy(file, copy);
    Files.setLastModifiedTime(copy, old);
    Files.move(copy, file, StandardCopyOption.REPLACE_EXISTING);
    assertThatThrownBy(() -> Joblib.load(file, MmapMode.READ_ONLY)).isInstanceOf(CorruptFileException.class);
  }

  @Test
  void aFileModifiedJustNowIsCheckedAgainEvenWithinTheClockGranularity() throws IOException {
    Path file = dumpedRamp("fresh.jl4j");
    Joblib.load(file, MmapMode.READ_ONLY); // verified, but the file is too fresh to be remembered
    flipInPlace(file, dataByte(file), 0x10); // may keep the same mtime: file times are coarse
    assertThatThrownBy(() -> Joblib.load(file, MmapMode.READ_ONLY)).isInstanceOf(CorruptFileException.class);
  }

  @Test
  void verificationCanBeTurnedOffForZeroCostMaps() throws IOException {
    Path file = dumpedRamp("unchecked.jl4j");
    flipInPlace(file, dataByte(file), 0x10);
    LoadOptions unchecked = LoadOptions.builder().mmapMode(MmapMode.READ_ONLY).verifyMappedData(false).build();
    NDArray a = Joblib.load(file, unchecked);
    assertThat(a.getDouble(N - 100)).isNotEqualTo(N - 100);
    assertThat(unchecked.verifyMappedData()).isFalse();
    assertThat(LoadOptions.defaults().verifyMappedData()).isTrue();
  }
}
