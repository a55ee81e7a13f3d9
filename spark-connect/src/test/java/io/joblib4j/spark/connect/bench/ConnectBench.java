package io.joblib4j.spark.connect.bench;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.spark.connect.ConnectServer;
import io.joblib4j.spark.connect.SparkConnectBackend;
import java.io.Serial;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The Connect path against hand-written Connect code on the same session, in one run (BENCHMARKS.md,
 * "Spark Connect"). Not a CI test (its name matches neither *Test nor *IT): run it with
 * {@code mvn -B -o -pl spark-connect-server,spark-connect -am verify -Dtest=NONE
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ConnectBench}. Wall-clock medians of 5 rounds
 * after 2 warm-up rounds; the machine's load average is printed beside them.
 */
class ConnectBench {
  static final int ROUNDS = Integer.getInteger("bench.rounds", 5);

  /** 50 ms of work per element, as the hand-written baseline. */
  static final class Sleep50 implements MapPartitionsFunction<Long, Long> {
    @Serial private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Long> call(Iterator<Long> in) throws Exception {
      List<Long> out = new ArrayList<>();
      while (in.hasNext()) {
        long x = in.next();
        Thread.sleep(50); // stands for 50 ms of work
        out.add(x);
      }
      return out.iterator();
    }
  }

  /** A tiny task per element. */
  static final class PlusOne implements MapPartitionsFunction<Long, Long> {
    @Serial private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Long> call(Iterator<Long> in) {
      List<Long> out = new ArrayList<>();
      in.forEachRemaining(x -> out.add(x + 1));
      return out.iterator();
    }
  }

  private static int round;

  /** New content every round: a shared argument is sent once per session and content, so each round sends its own. */
  static byte[] freshBytes(int mib) {
    byte[] b = new byte[mib << 20];
    java.util.Arrays.fill(b, (byte) ++round);
    return b;
  }

  static int firstByte(byte[] data, int i) {
    return data[0] + i;
  }

  static long sleep50(long x) throws InterruptedException {
    Thread.sleep(50); // stands for 50 ms of work
    return x;
  }

  @Test
  void connectPathAgainstHandWrittenMapPartitions() throws Exception {
    SparkSession spark = ConnectServer.session();
    try (SparkConnectBackend backend = new SparkConnectBackend(spark, ConnectServer.options())) {
      int slots = backend.capacity();
      try (Parallel p = Parallel.builder().backend(backend).build()) {
        p.map((Long x) -> x, List.of(1L)); // adds the jars (the baseline's classes too) to the session
      }
      List<Long> in64 = IntStream.range(0, 64).mapToObj(i -> (long) i).toList();
      List<Long> in10k = IntStream.range(0, 10_000).mapToObj(i -> (long) i).toList();
      report("64 x 50 ms, hand-written range(0,64,1," + slots + ").mapPartitions", () -> {
        List<Long> r = spark.range(0, 64, 1, slots).as(Encoders.LONG()).mapPartitions(new Sleep50(), Encoders.LONG())
            .collectAsList();
        assertThat(r).hasSize(64);
      });
      report("64 x 50 ms, joblib4j Connect path, nJobs(-1), defaults", () -> {
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).build()) {
          assertThat(p.map(ConnectBench::sleep50, in64)).hasSize(64);
        }
      });
      report("64 x 50 ms, joblib4j Connect path, nJobs(-1), preDispatch(2*n_jobs) (adaptive, as before)", () -> {
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).preDispatch("2*n_jobs").build()) {
          assertThat(p.map(ConnectBench::sleep50, in64)).hasSize(64);
        }
      });
      report("64 x 50 ms, joblib4j Connect path, nJobs(-1), batchSize(" + 64 / slots + "), preDispatch(all)", () -> {
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).batchSize(64 / slots).preDispatch("all")
            .build()) {
          assertThat(p.map(ConnectBench::sleep50, in64)).hasSize(64);
        }
      });
      report("10,000 tiny, hand-written range(0,10000,1," + slots + ").mapPartitions", () -> {
        List<Long> r = spark.range(0, 10_000, 1, slots).as(Encoders.LONG()).mapPartitions(new PlusOne(), Encoders.LONG())
            .collectAsList();
        assertThat(r).hasSize(10_000);
      });
      report("10,000 tiny, joblib4j Connect path, nJobs(-1), defaults", () -> {
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).build()) {
          assertThat(p.map((Long x) -> x + 1, in10k)).hasSize(10_000);
        }
      });
      report("10,000 tiny, joblib4j Connect path, nJobs(-1), preDispatch(2*n_jobs) (adaptive, as before)", () -> {
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).preDispatch("2*n_jobs").build()) {
          assertThat(p.map((Long x) -> x + 1, in10k)).hasSize(10_000);
        }
      });
      int mib = Integer.getInteger("bench.sharedMib", 8);
      report(mib + " MiB argument x 8 batches of 1, shared once (maxNbytes default)", () -> {
        byte[] big = freshBytes(mib);
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).batchSize(1).build()) {
          assertThat(p.run(IntStream.range(0, 8).mapToObj(i -> delayed(ConnectBench::firstByte, big, i)).toList()))
              .hasSize(8);
        }
      });
      report("10,000 tiny, joblib4j Connect path, nJobs(-1), batchSize(" + 10_000 / slots + "), preDispatch(all)", () -> {
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).batchSize(10_000 / slots).preDispatch("all")
            .build()) {
          assertThat(p.map((Long x) -> x + 1, in10k)).hasSize(10_000);
        }
      });
      // last: a large argument inside every batch makes the server materialize it per operation,
      // which is what may exhaust its heap (it did with 32 MiB)
      report(mib + " MiB argument x 8 batches of 1, inside every batch (maxNbytes(-1))", () -> {
        byte[] big = freshBytes(mib);
        try (Parallel p = Parallel.builder().backend(backend).nJobs(-1).batchSize(1).maxNbytes(-1).build()) {
          assertThat(p.run(IntStream.range(0, 8).mapToObj(i -> delayed(ConnectBench::firstByte, big, i)).toList()))
              .hasSize(8);
        }
      });
    }
  }

  interface Body {
    void run() throws Exception;
  }

  private static void report(String what, Body body) throws Exception {
    for (int w = 0; w < 2; w++) {
      body.run();
    }
    long[] ms = new long[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      long t0 = System.nanoTime();
      body.run();
      ms[r] = (System.nanoTime() - t0) / 1_000_000;
    }
    long[] sorted = ms.clone();
    java.util.Arrays.sort(sorted);
    System.out.printf("BENCH %-70s median %6d ms  (rounds %s)  load %s%n", what, sorted[ROUNDS / 2],
        java.util.Arrays.toString(ms), load());
  }

  private static String load() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim().split(" ")[0];
    } catch (Exception e) {
      return "?";
    }
  }

}
