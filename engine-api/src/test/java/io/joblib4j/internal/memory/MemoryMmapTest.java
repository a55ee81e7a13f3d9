package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Compress;
import io.joblib4j.CorruptFileException;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.array.ReadOnlyArrayException;
import io.joblib4j.testing.Captured;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** joblib's test_memory_numpy_check_mmap_mode, for NDArray. */
class MemoryMmapTest {
  static final AtomicInteger CALLS = new AtomicInteger();
  @TempDir Path dir;

  @org.junit.jupiter.api.BeforeEach
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
  void everyCallReturnsAReadOnlyMappingEvenTheFirst() {
    Memory memory = Memory.builder(dir).verbose(0).mmapMode(MmapMode.READ_ONLY).build();
    MemoizedFn1<Integer, NDArray> f = memory.cache(MemoryMmapTest::ramp);
    for (int i = 0; i < 3; i++) {
      NDArray a = f.apply(1000);
      assertThat(a.isMapped()).isTrue();
      assertThat(a.mmapMode()).contains(MmapMode.READ_ONLY);
      assertThat(a.getDouble(999)).isEqualTo(999.0);
      assertThatThrownBy(() -> a.setDouble(1.0, 0)).isInstanceOf(ReadOnlyArrayException.class);
    }
    assertThat(CALLS.get()).isEqualTo(1);
  }

  @Test
  void copyOnWriteGivesAPrivateWritableCopyAndTheEntryStaysIntact() {
    MemoizedFn1<Integer, NDArray> f = Memory.builder(dir).verbose(0).build().cache(MemoryMmapTest::ramp)
        .mmapMode(MmapMode.COPY_ON_WRITE);
    NDArray a = f.apply(100);
    a.setDouble(-1.0, 5);
    assertThat(a.getDouble(5)).isEqualTo(-1.0);
    assertThat(f.apply(100).getDouble(5)).isEqualTo(5.0);
  }

  @Test
  void readWriteIsRefusedBecauseEntriesAreShared() {
    assertThatThrownBy(() -> Memory.builder(dir).mmapMode(MmapMode.READ_WRITE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("immutable");
    assertThatThrownBy(() -> new Memory(dir).cache(MemoryMmapTest::ramp).mmapMode(MmapMode.READ_WRITE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("COPY_ON_WRITE");
  }

  @Test
  void compressedResultsLoadInMemoryWithAWarning() {
    List<String> warnings = Captured.warnings(() -> {
      Memory memory = Memory.builder(dir).verbose(0).compress(Compress.of("lz4")).mmapMode(MmapMode.READ_ONLY).build();
      NDArray a = memory.cache(MemoryMmapTest::ramp).apply(10);
      assertThat(a.isMapped()).isFalse();
      assertThat(a.getDouble(9)).isEqualTo(9.0);
    });
    assertThat(warnings).anyMatch(w -> w.contains("cannot be memory-mapped"));
  }

  /**
   * A mapped hit reads no array data: a flip inside the array is found when its block is first
   * read, naming the entry's file, and {@code verify(true)} removes the entry so that the next call
   * recomputes it. A flip outside the data (framing, block sums) is found by the hit itself.
   */
  @Test
  void aDamagedMappedArrayFailsTheReadOfItsBlockAndVerifyRemovesTheEntry() throws Exception {
    Memory memory = Memory.builder(dir.resolve("c")).verbose(0).build();
    MemoizedFn1<Integer, NDArray> f = memory.cache(MemoryMmapTest::ramp).mmapMode(MmapMode.READ_ONLY);
    f.apply(4096);
    Path output;
    try (var files = Files.walk(dir.resolve("c"))) {
      output = files.filter(p -> p.getFileName().toString().equals("output.jl4j")).findFirst().orElseThrow();
    }
    // a bit rot in place (the store itself never rewrites an entry), in element 100
    byte[] bytes = Files.readAllBytes(output);
    bytes[64 + 8 * 100 + 3] ^= 0x10;
    Path copy = output.resolveSibling("x");
    Files.write(copy, bytes);
    Files.move(copy, output, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    CALLS.set(0);
    NDArray a = f.apply(4096);
    assertThat(CALLS.get()).isZero();
    assertThatThrownBy(() -> a.getDouble(100)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(output.toString()).hasMessageContaining("CRC32C");
    assertThat(memory.verify(true).problems(io.joblib4j.VerifyReport.Kind.DAMAGED_ENTRY)).hasSize(1);
    NDArray again = f.apply(4096);
    assertThat(CALLS.get()).isEqualTo(1);
    assertThat(again.getDouble(100)).isEqualTo(100);
  }
}
