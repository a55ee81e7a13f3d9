package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.array.NDArray;
import io.joblib4j.internal.persist.OldFormatFiles;
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
 * A memory-mapped load checks the array data against its CRC32Cs as a heap load does (issue 19.1),
 * lazily: each 1 MiB block of a current-format file is checked when it is first read (issue 39);
 * an old-format file, which has no block sums, is checked whole once per version of the file in a
 * JVM. Either can be turned off.
 */
class MappedLoadVerificationTest {
  static final int FLIPS = 2_500;
  private static final int N = 8192;
  private static final int BLOCK = 1 << 20;
  /** Two whole 1 MiB blocks and half a third: 2.5 MiB of doubles. */
  private static final int LARGE = 5 * BLOCK / 2 / 8;
  /** The data blob's payload starts at 64 (file header, record header). */
  private static final long DATA_AT = 64;

  @TempDir Path dir;

  private Path dumpedRamp(String name) {
    return dumpedRamp(name, N);
  }

  private Path dumpedRamp(String name, int n) {
    Path file = dir.resolve(name);
    Joblib.dump(ramp(n), file);
    return file;
  }

  private static NDArray ramp(int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = i;
    }
    return NDArray.of(d, n);
  }

  /** Flips the bits of {@code mask} in the byte at {@code at}, in place. */
  static void flipInPlace(Path file, long at, int mask) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, at);
      b.put(0, (byte) (b.get(0) ^ mask)).rewind();
      ch.write(b, at);
    }
  }

  /** A byte of element N - 100. */
  private static long dataByte(Path file) {
    return DATA_AT + 8L * (N - 100) + 6;
  }

  @Test
  void aFlippedDataByteFailsEveryMappedModeAsItFailsAHeapLoadWhenItsBlockIsRead() throws IOException {
    for (MmapMode mode : MmapMode.values()) {
      Path file = dumpedRamp("flip-" + mode + ".jl4j");
      flipInPlace(file, dataByte(file), 0x10);
      assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(CorruptFileException.class);
      assertThatThrownBy(() -> {
        NDArray a = Joblib.load(file, mode); // READ_WRITE checks all before it hands the file out
        a.getDouble(0);
      }).as(mode.toString()).isInstanceOf(CorruptFileException.class).hasMessageContaining(file.toString())
          .hasMessageContaining("CRC32C");
    }
  }

  /**
   * Every flip of a byte of the file is found: a flip outside the array data (framing, object
   * stream, block sums, payload checksum) by the load itself; a flip in the data, which the load
   * does not read, when its block is read (through an element accessor, a bulk read or a view,
   * taking turns), while a read of another block succeeds.
   */
  @Test
  void everyRandomFlipOfAMappedArrayFileIsDetectedWhenItsBlockIsRead() throws IOException {
    Path file = dumpedRamp("random.jl4j", LARGE);
    long size = Files.size(file);
    long dataEnd = DATA_AT + 8L * LARGE;
    SplittableRandom random = new SplittableRandom(19);
    int detected = 0;
    int atLoad = 0;
    for (int i = 0; i < FLIPS; i++) {
      // a quarter of the flips outside the data, which is almost all of the file
      long at = i % 4 != 0 ? random.nextLong(size) : random.nextBoolean() ? random.nextLong(DATA_AT)
          : random.nextLong(dataEnd, size);
      int mask = 1 << random.nextInt(8);
      flipInPlace(file, at, mask);
      MmapMode mode = i % 2 == 0 ? MmapMode.READ_ONLY : MmapMode.COPY_ON_WRITE;
      if (at < DATA_AT || at >= dataEnd) {
        assertThatThrownBy(() -> Joblib.load(file, mode)).as("flip at %d", at).isInstanceOf(CorruptFileException.class);
        atLoad++;
      } else {
        NDArray a = Joblib.load(file, mode);
        int flipped = (int) ((at - DATA_AT) / BLOCK);
        int other = (flipped + 1 + random.nextInt(2)) % 3;
        assertThat(read(a, other, i, random)).as("flip at %d, block %d read", at, other).isNotNaN();
        int way = i;
        assertThatThrownBy(() -> read(a, flipped, way, random)).as("flip at %d", at)
            .isInstanceOf(CorruptFileException.class).hasMessageContaining("block " + flipped + " of 3");
      }
      detected++;
      flipInPlace(file, at, mask);
    }
    assertThat(detected).isEqualTo(FLIPS);
    assertThat(atLoad).as("flips found at the load").isGreaterThanOrEqualTo(FLIPS / 4);
    NDArray intact = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(intact.getDouble(LARGE - 1)).isEqualTo(LARGE - 1);
    assertThat(intact).isEqualTo(ramp(LARGE));
  }

  /** Reads one random element of block {@code block}: {@code way} 0 through an accessor, 1 a bulk read, 2 a view. */
  private static double read(NDArray a, int block, int way, SplittableRandom random) {
    long element = ((long) block * BLOCK + random.nextInt(block == 2 ? BLOCK / 2 : BLOCK)) / 8;
    return switch (way % 3) {
      case 0 -> a.getDouble(element);
      case 1 -> a.slice(element, element + 1).toDoubleArray()[0];
      default -> a.slice(element, LARGE).getDouble(0);
    };
  }

  @Test
  void everyRandomFlipOfAnOldFormatFileIsDetectedByTheMappedLoadItself() throws IOException {
    Path file = dir.resolve("old-random.jl4j");
    OldFormatFiles.dumpVersion1(ramp(N), file);
    long size = Files.size(file);
    SplittableRandom random = new SplittableRandom(39);
    for (int i = 0; i < FLIPS / 10; i++) {
      long at = random.nextLong(size);
      int mask = 1 << random.nextInt(8);
      flipInPlace(file, at, mask);
      assertThatThrownBy(() -> Joblib.load(file, MmapMode.READ_ONLY)).as("flip at %d", at)
          .isInstanceOf(CorruptFileException.class);
      flipInPlace(file, at, mask);
    }
    assertThat(Joblib.<NDArray>load(file, MmapMode.READ_ONLY)).isEqualTo(ramp(N));
  }

  @Test
  void anOldFormatFileIsVerifiedOncePerVersionAndARewrittenFileIsCheckedAgain() throws IOException {
    Path file = dir.resolve("once.jl4j");
    OldFormatFiles.dumpVersion1(ramp(N), file);
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
  void anOldFormatFileModifiedJustNowIsCheckedAgainEvenWithinTheClockGranularity() throws IOException {
    Path file = dir.resolve("fresh.jl4j");
    OldFormatFiles.dumpVersion1(ramp(N), file);
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
