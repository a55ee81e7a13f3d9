package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import io.joblib4j.internal.array.BlockChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mapped load of a current-format file reads nothing of the array data: each 1 MiB block is
 * checked against its CRC32C the first time it is touched, once per loaded array, from any thread
 * (issue 39).
 */
class LazyMappedBlocksTest {
  private static final int BLOCK = 1 << 20;
  /** Four blocks of doubles, the last one half full. */
  private static final int N = 7 * BLOCK / 2 / 8;
  private static final long DATA_AT = 64;

  @TempDir Path dir;

  private Path ramp(String name) {
    double[] d = new double[N];
    for (int i = 0; i < N; i++) {
      d[i] = i;
    }
    Path file = dir.resolve(name);
    Joblib.dump(NDArray.of(d, N), file);
    return file;
  }

  private static BlockChecks checks(NDArray a) {
    return ArrayAccess.get().storage(a).checks();
  }

  /** The index of an element in the middle of block {@code b}. */
  private static long inBlock(int b) {
    return ((long) b * BLOCK + BLOCK / 4) / 8;
  }

  @Test
  void aMappedLoadChecksNoBlockUntilItIsRead() {
    NDArray a = Joblib.load(ramp("lazy.jl4j"), MmapMode.READ_ONLY);
    BlockChecks c = checks(a);
    assertThat(c.blocks()).isEqualTo(4);
    for (int b = 0; b < 4; b++) {
      assertThat(c.isChecked(b)).isFalse();
    }
    assertThat(a.getDouble(inBlock(2))).isEqualTo(inBlock(2));
    assertThat(c.isChecked(2)).isTrue();
    assertThat(c.isChecked(1)).isFalse();
    assertThat(c.isChecked(3)).as("a read out of order checks nothing ahead").isFalse();
    assertThat(a.slice(inBlock(0), inBlock(1)).toDoubleArray()).hasSize((int) (inBlock(1) - inBlock(0)));
    assertThat(c.isChecked(0)).isTrue();
    assertThat(c.isChecked(1)).isTrue();
    assertThat(c.isChecked(3)).isFalse();
  }

  @Test
  void aSequentialScanStopsAtTheDamagedBlocksFirstElement() throws Exception {
    Path file = ramp("scan.jl4j");
    MappedLoadVerificationTest.flipInPlace(file, DATA_AT + 2L * BLOCK + 77, 0x04);
    NDArray a = Joblib.load(file, MmapMode.READ_ONLY);
    long[] read = {0};
    assertThatThrownBy(() -> {
      for (long i = 0; i < N; i++) {
        a.getDouble(i);
        read[0] = i + 1;
      }
    }).isInstanceOf(CorruptFileException.class).hasMessageContaining("block 2 of 4");
    assertThat(read[0]).as("elements read before the damaged block").isEqualTo(2L * BLOCK / 8);
    assertThat(checks(a).isChecked(2)).isFalse();
    assertThatThrownBy(() -> a.getDouble(2L * BLOCK / 8)).as("and again").isInstanceOf(CorruptFileException.class);
  }

  @Test
  void aDamagedBlockThatIsReadFailsNamingTheFileTheBlockAndWhatToDo() throws Exception {
    Path file = ramp("damaged.jl4j");
    long at = DATA_AT + 2L * BLOCK + 12345;
    MappedLoadVerificationTest.flipInPlace(file, at, 0x01);
    NDArray a = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(a.getDouble(inBlock(1))).isEqualTo(inBlock(1)); // other blocks read as usual
    assertThat(a.getDouble(inBlock(3))).isEqualTo(inBlock(3));
    long from = DATA_AT + 2L * BLOCK;
    assertThatThrownBy(() -> a.getDouble(inBlock(2))).isInstanceOf(CorruptFileException.class)
        .hasMessageStartingWith(file + ": ")
        .hasMessageContaining("checksum mismatch (CRC32C) in block 2 of 4")
        .hasMessageContaining("file offsets " + from + ".." + (from + BLOCK - 1))
        .hasMessageContaining("restore it from a copy or write it again");
    // every way to the bytes checks them: bulk reads, views, copies, hashing, equality
    assertThatThrownBy(a::toDoubleArray).isInstanceOf(CorruptFileException.class);
    assertThatThrownBy(() -> a.slice(inBlock(2), inBlock(2) + 1).getDouble(0)).isInstanceOf(CorruptFileException.class);
    assertThatThrownBy(() -> a.reshape(N / 2, 2).row(inBlock(2) / 2).getDouble(0))
        .isInstanceOf(CorruptFileException.class);
    assertThatThrownBy(a::copy).isInstanceOf(CorruptFileException.class);
    assertThatThrownBy(() -> Joblib.hash(a)).isInstanceOf(CorruptFileException.class);
    assertThatThrownBy(() -> a.equals(a.copy())).isInstanceOf(CorruptFileException.class);
    assertThatThrownBy(() -> Joblib.dump(a, dir.resolve("again.jl4j"))).isInstanceOf(CorruptFileException.class);
    assertThat(checks(a).isChecked(2)).isFalse();
  }

  @Test
  void aCopyOnWriteMappingChecksABlockBeforeItsFirstWrite() throws Exception {
    Path file = ramp("cow.jl4j");
    MappedLoadVerificationTest.flipInPlace(file, DATA_AT + BLOCK + 8, 0x40);
    NDArray a = Joblib.load(file, MmapMode.COPY_ON_WRITE);
    a.setDouble(-1, inBlock(0));
    assertThat(a.getDouble(inBlock(0))).isEqualTo(-1);
    // writing over the damage would hide it and make later reads of the block fail as if the user's write were damage
    assertThatThrownBy(() -> a.setDouble(-1, inBlock(1))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("block 1 of 4");
    assertThatThrownBy(() -> a.slice(inBlock(1), inBlock(1) + 2).copyFrom(NDArray.of(1.0, 2.0)))
        .isInstanceOf(CorruptFileException.class);
  }

  @Test
  void aCurrentFormatFileIsCheckedAgainByEachLoadNotRememberedAsChecked() throws Exception {
    Path file = ramp("each.jl4j");
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    NDArray first = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(first.toDoubleArray()).hasSize(N);
    MappedLoadVerificationTest.flipInPlace(file, DATA_AT + 3L * BLOCK + 8, 0x02);
    NDArray second = Joblib.load(file, MmapMode.READ_ONLY);
    assertThatThrownBy(() -> second.getDouble(inBlock(3))).isInstanceOf(CorruptFileException.class);
  }

  @Test
  void threadsTouchingTheSameBlocksFirstEachSeeCheckedDataOrTheError() throws Exception {
    Path good = ramp("shared.jl4j");
    Path bad = ramp("shared-bad.jl4j");
    MappedLoadVerificationTest.flipInPlace(bad, DATA_AT + 1L * BLOCK + 999, 0x08);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 20; round++) {
        NDArray a = Joblib.load(good, MmapMode.READ_ONLY);
        NDArray b = Joblib.load(bad, MmapMode.READ_ONLY);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int first = t % 4;
          results.add(pool.submit(() -> {
            start.await();
            int failures = 0;
            for (int k = 0; k < 4; k++) {
              int block = (first + k) % 4;
              assertThat(a.getDouble(inBlock(block))).isEqualTo(inBlock(block));
              try {
                assertThat(b.getDouble(inBlock(block))).isEqualTo(inBlock(block));
              } catch (CorruptFileException e) {
                assertThat(block).isEqualTo(1);
                failures++;
              }
            }
            return failures;
          }));
        }
        start.countDown();
        for (Future<Integer> r : results) {
          assertThat(r.get()).as("every thread that reads the damaged block is told").isEqualTo(1);
        }
        for (int block = 0; block < 4; block++) {
          assertThat(checks(a).isChecked(block)).isTrue();
          assertThat(checks(b).isChecked(block)).isEqualTo(block != 1);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anOldFormatFileWithoutBlockSumsIsCheckedWholeAtTheLoad() throws Exception {
    Path file = dir.resolve("old.jl4j");
    double[] d = new double[N];
    io.joblib4j.internal.persist.OldFormatFiles.dumpVersion1(NDArray.of(d, N), file);
    NDArray a = Joblib.load(file, MmapMode.READ_ONLY);
    assertThat(checks(a)).isNull();
    assertThat(a.getDouble(N - 1)).isZero();
    MappedLoadVerificationTest.flipInPlace(file, DATA_AT + 3L * BLOCK, 0x01);
    assertThatThrownBy(() -> Joblib.load(file, MmapMode.READ_ONLY)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("CRC32C");
  }
}
