package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import io.joblib4j.internal.array.BlockChecks;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Memory hit with {@code mmapMode} maps its entry lazily (issue 39): the hit reads none of the
 * array data, so an entry whose last block was damaged is still a hit, its other blocks read as
 * usual, and only the read of the damaged block fails. Both ways a hit maps: the local store's
 * channel, and the local file another store hands out ({@link Store#localFile}).
 */
class LazyMappedHitsTest {
  private static final int BLOCK = 1 << 20;
  /** Four blocks of doubles, the last one half full. */
  private static final int N = 7 * BLOCK / 2 / 8;
  static final AtomicInteger CALLS = new AtomicInteger();

  @TempDir Path dir;

  @BeforeEach
  void resetCalls() {
    CALLS.set(0);
  }

  public static NDArray ramp(int n) {
    CALLS.incrementAndGet();
    NDArray a = NDArray.zeros(DType.FLOAT64, n);
    for (int i = 0; i < n; i++) {
      a.setDouble(i, i);
    }
    return a;
  }

  @Test
  void aMappedHitOnTheLocalStoreChecksNoBlockAndOnlyAReadOfTheDamagedBlockFails() throws Exception {
    hitReadsOnlyWhatIsRead(new LocalStore(dir));
  }

  @Test
  void aMappedHitThroughAStoresLocalFileChecksNoBlockAndOnlyAReadOfTheDamagedBlockFails() throws Exception {
    // not a LocalStore: the hit maps the file that localFile hands out, as for a store's local copy
    hitReadsOnlyWhatIsRead(new FailingStore(new LocalStore(dir), Long.MAX_VALUE, false));
  }

  private void hitReadsOnlyWhatIsRead(Store store) throws Exception {
    MemoizedFn1<Integer, NDArray> f = Memory.builder(store).verbose(0).mmapMode(MmapMode.READ_ONLY).build()
        .cache(LazyMappedHitsTest::ramp);
    assertThat(f.apply(N).getDouble(1)).isEqualTo(1.0);
    Path output = only(dir, "output.jl4j");
    long dataAt = dataOffset(output);
    flip(output, dataAt + 3L * BLOCK + 4321);

    NDArray hit = f.apply(N);
    assertThat(CALLS.get()).as("the damaged entry is still a hit: the hit read none of its data").isEqualTo(1);
    assertThat(hit.isMapped()).isTrue();
    BlockChecks checks = ArrayAccess.get().storage(hit).checks();
    assertThat(checks).as("a current-format entry is checked lazily").isNotNull();
    for (int b = 0; b < checks.blocks(); b++) {
      assertThat(checks.isChecked(b)).as("block %d checked by the hit itself", b).isFalse();
    }
    assertThat(hit.getDouble(inBlock(0))).isEqualTo(inBlock(0));
    assertThat(hit.getDouble(inBlock(2))).isEqualTo(inBlock(2));
    assertThatThrownBy(() -> hit.getDouble(inBlock(3))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("block 3 of 4");
  }

  private static long inBlock(int b) {
    return ((long) b * BLOCK + BLOCK / 4) / 8;
  }

  private static Path only(Path root, String name) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      List<Path> found = files.filter(p -> p.getFileName().toString().equals(name)).toList();
      assertThat(found).hasSize(1);
      return found.get(0);
    }
  }

  /** Where the ramp's data starts in the file: the first {@code 1.0, 2.0, 3.0}, less one element. */
  private static long dataOffset(Path file) throws IOException {
    byte[] all = Files.readAllBytes(file);
    ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
    for (int at = 0; at + 24 <= all.length; at++) {
      if (b.getDouble(at) == 1.0 && b.getDouble(at + 8) == 2.0 && b.getDouble(at + 16) == 3.0) {
        return at - 8;
      }
    }
    throw new AssertionError("no ramp in " + file);
  }

  private static void flip(Path file, long at) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, at);
      one.put(0, (byte) (one.get(0) ^ 0x10)).rewind();
      ch.write(one, at);
    }
  }
}
