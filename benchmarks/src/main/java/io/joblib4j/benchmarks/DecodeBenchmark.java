package io.joblib4j.benchmarks;

import io.joblib4j.Joblib;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Loading values made of many small objects, where the decoder's per-value work shows (the heap
 * budget of issue 19.2 charges every value): a Map of 200,000 String → Integer entries, and a List
 * of 100,000 records of three fields. Public API only, so the same class runs against an older
 * build's jar for a before/after comparison in one run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Benchmark)
public class DecodeBenchmark {
  /** A small record: allowed by default, rebuilt through its canonical constructor. */
  public record Point(String name, double x, long y) {}

  byte[] map;
  byte[] records;

  @Setup(Level.Trial)
  public void setUp() {
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      m.put("key-" + i, i);
    }
    map = dump(m);
    List<Point> l = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      l.add(new Point("p" + i, i * 0.5, i));
    }
    records = dump(l);
  }

  private static byte[] dump(Object v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(v, out);
    return out.toByteArray();
  }

  @Benchmark
  public Object loadMap() {
    return Joblib.load(new ByteArrayInputStream(map));
  }

  @Benchmark
  public Object loadRecords() {
    return Joblib.load(new ByteArrayInputStream(records));
  }
}
