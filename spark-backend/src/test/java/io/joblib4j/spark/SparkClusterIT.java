package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import io.joblib4j.fn.Action;
import io.joblib4j.spark.internal.ChannelStats;
import io.joblib4j.testing.Rendezvous;
import io.joblib4j.testing.Rendezvous.Gate;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The spark backend with executors in two separate JVMs (local-cluster[2,1,1024]): test classes
 * travel to them, the initializer runs once per executor JVM, a large argument reaches each
 * executor once, and killing an executor mid-call loses and duplicates nothing. The executor
 * loss comes last: it changes the cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkClusterIT {
  private static final long DRIVER_PID = ProcessHandle.current().pid();
  private static JavaSparkContext jsc;
  private static SparkBackend spark;
  private static final Action LOAD_VOCABULARY = Vocabulary::load;

  @BeforeAll
  static void start() {
    jsc = ClusterSpark.shared();
    spark = new SparkBackend(jsc);
  }

  @AfterAll
  static void stop() {
    spark.close();
  }

  /** A class that exists only in the tests jar. */
  record Scored(int fold, long pid, double score) implements Serializable {}

  static Scored score(int fold) throws InterruptedException {
    Thread.sleep(50); // long enough that both workers get folds
    return new Scored(fold, ProcessHandle.current().pid(), fold / 10.0);
  }

  @Test
  @Order(1)
  void testClassesRunInTheExecutorJvmsAndResultsComeBackInOrder() {
    try (Parallel p = Parallel.builder().backend(spark).nJobs(-1).batchSize(1).build()) {
      assertThat(p.effectiveNJobs()).isEqualTo(2);
      List<Scored> out = p.map(SparkClusterIT::score, IntStream.range(0, 40).boxed().collect(Collectors.toList()));
      assertThat(out).extracting(Scored::fold).isEqualTo(IntStream.range(0, 40).boxed().collect(Collectors.toList()));
      Set<Long> pids = out.stream().map(Scored::pid).collect(Collectors.toSet());
      assertThat(pids).doesNotContain(DRIVER_PID).hasSize(2);
    }
  }

  /** (pid, how often the vocabulary loaded in that JVM, the id the task looked up). */
  static String lookUp(String word) {
    return ProcessHandle.current().pid() + " " + Vocabulary.LOADS.get() + " " + Vocabulary.current.id(word);
  }

  @Test
  @Order(2)
  void theInitializerRunsOncePerExecutorJvmBeforeItsFirstTask() {
    for (int call = 0; call < 2; call++) {
      try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).initializer(LOAD_VOCABULARY).build()) {
        List<String> out = p.map(SparkClusterIT::lookUp, List.of("alpha", "beta", "gamma", "delta", "beta", "alpha"));
        assertThat(out).extracting(s -> s.split(" ")[2]).containsExactly("0", "1", "2", "3", "1", "0");
        assertThat(out).extracting(s -> s.split(" ")[1]).as("loaded once per JVM, over two calls").containsOnly("1");
      }
    }
  }

  /** A large argument that counts, per JVM, how often it is deserialized. */
  static final class Blob implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    static final AtomicInteger DESERIALIZED = new AtomicInteger();
    final double[] data;

    Blob(int length) {
      data = new double[length];
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      DESERIALIZED.incrementAndGet();
    }
  }

  static long[] pidAndCount(Blob blob) {
    return new long[] {ProcessHandle.current().pid(), Blob.DESERIALIZED.get(), blob.data.length};
  }

  @Test
  @Order(3)
  void aLargeArgumentCrossesToEachExecutorOnceNotOncePerTask() {
    Blob blob = new Blob(1_000_000); // 8 MB
    Map<Long, Long> before = deserializations();
    long batchBytes = ChannelStats.batchBytes();
    List<long[]> out;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      out = p.run(IntStream.range(0, 8).mapToObj(i -> delayed(SparkClusterIT::pidAndCount, blob)));
    }
    assertThat(out).allSatisfy(r -> assertThat(r[2]).isEqualTo(1_000_000));
    Map<Long, Long> after = deserializations();
    Set<Long> used = out.stream().map(r -> r[0]).collect(Collectors.toSet());
    for (long pid : used) {
      assertThat(after.get(pid) - before.getOrDefault(pid, 0L)).as("deserializations in executor " + pid).isEqualTo(1);
    }
    assertThat(ChannelStats.batchBytes() - batchBytes).as("the 8 MB array is not in the batches").isLessThan(200_000);

    // without sharing, every batch carries its own copy
    before = after;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).maxNbytes("none").build()) {
      p.run(IntStream.range(0, 8).mapToObj(i -> delayed(SparkClusterIT::pidAndCount, blob)));
    }
    after = deserializations();
    long total = 0;
    for (Map.Entry<Long, Long> e : after.entrySet()) {
      total += e.getValue() - before.getOrDefault(e.getKey(), 0L);
    }
    assertThat(total).isEqualTo(8);
  }

  /** Each executor's deserialization count, read by a task on each of them. */
  private static Map<Long, Long> deserializations() {
    Map<Long, Long> counts = new HashMap<>();
    for (long[] r : jsc.parallelize(List.of(0, 1, 2, 3), 4)
        .map(i -> new long[] {ProcessHandle.current().pid(), Blob.DESERIALIZED.get()}).collect()) {
      counts.merge(r[0], r[1], Math::max);
    }
    return counts;
  }

  static String lookUpOnceBothWork(String word, Gate bothWorkers) throws InterruptedException {
    bothWorkers.arrive();
    bothWorkers.pass();
    return lookUp(word);
  }

  static long slowPid(int i) throws InterruptedException {
    Thread.sleep(150);
    return ProcessHandle.current().pid() * 1000 + i;
  }

  @Test
  @Order(4)
  void killingAnExecutorMidCallLosesAndDuplicatesNothing() throws Exception {
    List<Long> out = new ArrayList<>();
    long[] victim = new long[1];
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).initializer(LOAD_VOCABULARY).build()) {
      ResultIterator<Long> it = p.iterate(IntStream.range(0, 60).mapToObj(i -> delayed(SparkClusterIT::slowPid, i)));
      for (int i = 0; i < 4; i++) {
        out.add(it.next());
      }
      victim[0] = out.get(0) / 1000;
      assertThat(victim[0]).isNotEqualTo(DRIVER_PID);
      assertThat(ProcessHandle.of(victim[0]).orElseThrow().destroyForcibly()).isTrue(); // kill -9
      it.forEachRemaining(out::add);
    }
    assertThat(out).extracting(r -> r % 1000).as("every task once, in order")
        .isEqualTo(IntStream.range(0, 60).mapToObj(i -> (long) i).collect(Collectors.toList()));

    // Spark replaces the lost executor; the initializer runs again in the new JVM. The call's two
    // workers each hold a task at the gate before any goes on, so both JVMs serve it: the survivor
    // and the replacement, whenever Spark has started it
    try (Rendezvous r = Rendezvous.open();
         Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).initializer(LOAD_VOCABULARY).build()) {
      Gate bothWorkers = r.gate("both workers");
      ResultIterator<String> it = p.iterate(Stream.of("alpha", "beta", "gamma", "delta", "alpha", "beta", "gamma", "delta")
          .map(w -> delayed(SparkClusterIT::lookUpOnceBothWork, w, bothWorkers)));
      r.awaitArrivals(bothWorkers.name(), 2);
      r.openGate(bothWorkers.name());
      List<String> again = new ArrayList<>();
      it.forEachRemaining(again::add);
      assertThat(again).extracting(s -> s.split(" ")[2]).containsExactly("0", "1", "2", "3", "0", "1", "2", "3");
      assertThat(again).extracting(s -> s.split(" ")[1]).as("loaded exactly once in each JVM").containsOnly("1");
      Set<Long> pids = again.stream().map(s -> Long.parseLong(s.split(" ")[0])).collect(Collectors.toSet());
      // two live JVMs without the killed one: the survivor and its replacement, which ran the
      // initializer (once) before its first task
      assertThat(pids).hasSize(2).doesNotContain(victim[0]);
    }
  }
}
