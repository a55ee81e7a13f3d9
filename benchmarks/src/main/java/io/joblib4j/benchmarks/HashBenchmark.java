package io.joblib4j.benchmarks;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import io.joblib4j.HashAlgorithm;
import io.joblib4j.Joblib;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Joblib.hash of a 512 MiB double[] and of a 1,000,000-entry Map&lt;String,Integer&gt; (joblib-bench:
 * 0.65 GB/s and 0.41M entries/s), beside plain baselines over the same data: one single-threaded
 * xxh128 pass over the array's bytes, and MD5 (what joblib uses) over them; for the map, one xxh3
 * per key's UTF-8 bytes plus the value, the least any per-entry content hash must do.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xms4g"})
public class HashBenchmark {
  static final int DOUBLES = 64 << 20; // 512 MiB
  static final int ENTRIES = 1_000_000;

  double[] array;
  ByteBuffer arrayBytes;
  Map<String, Integer> map;

  @Setup
  public void setUp() {
    SplittableRandom r = new SplittableRandom(42);
    array = new double[DOUBLES];
    for (int i = 0; i < DOUBLES; i++) {
      array[i] = r.nextDouble();
    }
    arrayBytes = ByteBuffer.allocate(DOUBLES * 8).order(ByteOrder.LITTLE_ENDIAN);
    arrayBytes.asDoubleBuffer().put(array);
    map = new HashMap<>();
    for (int i = 0; i < ENTRIES; i++) {
      map.put("key-" + i, i);
    }
  }

  @Benchmark
  public String joblibHashArray() {
    return Joblib.hash(array);
  }

  @Benchmark
  public String joblibHashArraySha256() {
    return Joblib.hash(array, HashAlgorithm.SHA_256);
  }

  /**
   * Baseline: one xxh128 pass over the array's little-endian bytes (a byte[] copy made in setUp:
   * hash4j reads byte arrays, not a double[]'s memory), one thread.
   */
  @Benchmark
  public HashValue128 baselineXxh128Array() {
    return Hashing.xxh3_128().hashBytesTo128Bits(arrayBytes.array());
  }

  /** Baseline: MD5 of the same bytes, joblib's hash function. */
  @Benchmark
  public byte[] baselineMd5Array() throws Exception {
    MessageDigest md = MessageDigest.getInstance("MD5");
    md.update(arrayBytes.duplicate());
    return md.digest();
  }

  @Benchmark
  public String joblibHashMap() {
    return Joblib.hash(map);
  }

  /** Baseline: xxh3 of every key's UTF-8 bytes and value, summed (order-independent). */
  @Benchmark
  public long baselineXxh3PerEntry() {
    Hasher64 f = Hashing.xxh3_64();
    long sum = 0;
    for (Map.Entry<String, Integer> e : map.entrySet()) {
      byte[] k = e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      sum += f.hashBytesToLong(k) ^ f.hashIntToLong(e.getValue());
    }
    return sum;
  }
}
