package io.joblib4j.hdfs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.ChunkedArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A ChunkedArray on s3a: writers fill their own chunks (each larger than what a manifest holds inline). */
class S3ChunkedArrayIT {
  @TempDir Path dir;

  @ParameterizedTest(name = "conditional writes: {0}")
  @ValueSource(booleans = {true, false})
  void writersFillTheirOwnChunksAndTheDriverOpensOneArray(boolean conditional) throws Exception {
    S3Server.skipWhereAskingForConditionalWritesChangesNothing(conditional);
    S3Server s3 = S3Server.shared();
    String location = s3.newLocation("arrays").toString();
    Map<String, Object> options = storeOptions(s3.conf(conditional));
    options.put("localCacheDir", dir.resolve("copies").toString());
    ChunkedArray a = ChunkedArray.create(location, options, "a", DType.FLOAT64, 300, 2000, 40);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<Future<Boolean>> done = new ArrayList<>();
    for (int i = 0; i < a.chunks(); i++) {
      int chunk = i;
      done.add(pool.submit(() -> a.writeChunk(chunk, fill(a, chunk))));
    }
    for (Future<Boolean> f : done) {
      assertThat(f.get()).isTrue();
    }
    pool.shutdown();
    assertThat(a.writeChunk(3, fill(a, 3))).isFalse(); // a retried task: the first chunk is kept
    NDArray heap = ChunkedArray.open(location, options, "a").toHeap();
    assertThat(a.toMapped(dir.resolve("a.f64"))).isEqualTo(heap);
    for (int r = 0; r < 2000; r += 97) {
      assertThat(heap.getDouble(r, 39)).isEqualTo(r * 39.0);
    }
  }

  static NDArray fill(ChunkedArray a, int i) {
    NDArray rows = a.newChunk(i);
    long first = a.firstRow(i);
    for (int r = 0; r < rows.shape(0); r++) {
      for (int c = 0; c < rows.shape(1); c++) {
        rows.setDouble((first + r) * c, r, c);
      }
    }
    return rows;
  }

  /** The S3A settings as store options ({@code hadoop.<key>}), which travel with the array to tasks. */
  static Map<String, Object> storeOptions(Configuration conf) {
    Map<String, Object> out = new HashMap<>();
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith("fs.s3a.")) {
        out.put("hadoop." + e.getKey(), conf.get(e.getKey()));
      }
    }
    return out;
  }
}
