package io.joblib4j.hdfs;

import static io.joblib4j.testing.JavaSerialized.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seed 004's shared output array, its rows filled by independent writers, on HDFS. */
class ChunkedArrayTest {
  @TempDir Path dir;

  private String location() {
    return MiniDfs.uri(MiniDfs.shared(), "/arrays-" + UUID.randomUUID()).toString();
  }

  /** Fills chunk i of ab: ab[0, r, c] = r + c, ab[1, r, c] = r * c, as in the seed. */
  static NDArray fill(ChunkedArray ab, int i) {
    NDArray rows = ab.newChunk(i);
    long first = ab.firstRow(i);
    for (int r = 0; r < rows.shape(0); r++) {
      for (int c = 0; c < rows.shape(1); c++) {
        rows.setDouble(first + r + c, r, c, 0);
        rows.setDouble((first + r) * c, r, c, 1);
      }
    }
    return rows;
  }


  @Test
  void writersFillTheirOwnChunksAndTheDriverOpensOneArray() throws Exception {
    String location = location();
    ChunkedArray ab = ChunkedArray.create(location, "ab", DType.FLOAT64, 7, 50, 30, 2);
    assertThat(ab.chunks()).isEqualTo(8);
    assertThat(ab.chunkShape(7)).containsExactly(1, 30, 2);
    assertThat(ab.missingChunks()).hasSize(8);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<Boolean>> done = new ArrayList<>();
    for (int i = 0; i < ab.chunks(); i++) {
      ChunkedArray shipped = roundTrip(ab); // as a task on an executor gets it
      int chunk = i;
      done.add(pool.submit(() -> shipped.writeChunk(chunk, fill(shipped, chunk))));
    }
    for (Future<Boolean> f : done) {
      assertThat(f.get()).isTrue();
    }
    pool.shutdown();
    assertThat(ab.writeChunk(3, fill(ab, 3))).isFalse(); // a retried task: the first chunk is kept
    assertThat(ab.isComplete()).isTrue();

    NDArray heap = ab.toHeap();
    NDArray mapped = ab.toMapped(dir.resolve("ab.f64"));
    assertThat(mapped.isMapped()).isTrue();
    assertThat(mapped).isEqualTo(heap);
    for (int r = 0; r < 50; r++) {
      for (int c = 0; c < 30; c++) {
        assertThat(heap.getDouble(r, c, 0)).isEqualTo(r + c);
        assertThat(heap.getDouble(r, c, 1)).isEqualTo((double) r * c);
      }
    }
    assertThat(ChunkedArray.open(location, "ab").readChunk(7)).isEqualTo(heap.slice(49, 50));
  }

  @Test
  void anIncompleteArrayCannotBeOpenedAsOneAndSaysWhichChunksAreMissing() {
    ChunkedArray a = ChunkedArray.create(location(), "partial", DType.INT32, 10, 35);
    a.writeChunk(0, a.newChunk(0));
    a.writeChunk(2, a.newChunk(2));
    assertThat(a.missingChunks()).containsExactly(1, 3);
    assertThatThrownBy(a::toHeap).isInstanceOf(IllegalStateException.class).hasMessageContaining("missing 2 of 4")
        .hasMessageContaining("[1, 3]");
  }

  @Test
  void chunksOfTheWrongShapeOrTypeAndClashingArraysAreRefused() {
    String location = location();
    ChunkedArray a = ChunkedArray.create(location, "x", DType.FLOAT32, 4, 10, 3);
    assertThatThrownBy(() -> a.writeChunk(0, NDArray.zeros(DType.FLOAT32, 4, 2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("float32[4, 3]");
    assertThatThrownBy(() -> a.writeChunk(2, NDArray.zeros(DType.FLOAT64, 2, 3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("float64");
    assertThat(ChunkedArray.create(location, "x", DType.FLOAT32, 4, 10, 3).chunks()).isEqualTo(3); // same: reused
    assertThatThrownBy(() -> ChunkedArray.create(location, "x", DType.FLOAT32, 5, 10, 3))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("exists as");
  }

  @Test
  void aChunkedArrayWorksOnAPlainLocalStoreToo() {
    ChunkedArray a = ChunkedArray.create(dir.resolve("local").toString(), "v", DType.INT64, 2, 5);
    for (int i = 0; i < a.chunks(); i++) {
      NDArray c = a.newChunk(i);
      for (int r = 0; r < c.shape(0); r++) {
        c.setLong(a.firstRow(i) + r, r);
      }
      a.writeChunk(i, c);
    }
    assertThat(a.toHeap()).isEqualTo(NDArray.of(0L, 1, 2, 3, 4));
  }

  @Test
  void aChunkFileWithBytesAfterItsEndIsRefusedNamingTheChunk() throws Exception {
    ChunkedArray a = ChunkedArray.create(dir.resolve("local").toString(), "v", DType.INT64, 2, 5);
    for (int i = 0; i < a.chunks(); i++) {
      a.writeChunk(i, a.newChunk(i));
    }
    Path chunk = dir.resolve("local").resolve("v").resolve("c000001").resolve("chunk.jl4j");
    Files.write(chunk, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);

    assertThatThrownBy(() -> a.readChunk(1)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("c000001").hasMessageContaining("3 unexpected bytes after");
    assertThatThrownBy(a::toHeap).isInstanceOf(CorruptFileException.class).hasMessageContaining("c000001");
    assertThatThrownBy(() -> a.toMapped(dir.resolve("whole"))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("c000001");
    assertThat(a.readChunk(0)).isEqualTo(NDArray.zeros(DType.INT64, 2));
  }
}
