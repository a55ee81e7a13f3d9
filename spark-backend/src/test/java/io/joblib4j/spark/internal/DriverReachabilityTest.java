package io.joblib4j.spark.internal;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.joblib4j.Parallel;
import io.joblib4j.spark.LocalSpark;
import io.joblib4j.spark.SparkBackend;
import io.joblib4j.spark.WireTap;
import io.joblib4j.spi.support.Warnings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.commons.lang3.exception.ExceptionUtils;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where the driver listens, and what happens when executors cannot reach it: a port range is
 * honoured (busy ports skipped, an error naming the setting when all are busy); an unreachable
 * driver fails the call fast naming the settings ({@code channel=driver}), or the call and the
 * next ones run as Spark jobs ({@code channel=auto}) — bounded by the connect timeout, never a
 * hang. On local[2], whose tasks connect over real TCP like an executor's.
 */
@Timeout(180)
class DriverReachabilityTest {
  /** TEST-NET-1 (RFC 5737): assigned to no host, so executors cannot reach a driver "there". */
  private static final String UNREACHABLE = "192.0.2.1";
  private static SparkContext sc;
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private Runnable removeHook;

  @BeforeAll
  static void start() {
    sc = LocalSpark.session().sparkContext();
  }

  @BeforeEach
  void hook() {
    removeHook = Warnings.addHook((source, message) -> warnings.add(message));
  }

  @AfterEach
  void unhook() {
    removeHook.run();
  }

  static int times3(int i) {
    return i * 3;
  }

  private static List<Integer> run(SparkBackend backend, int n) {
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      return p.map(DriverReachabilityTest::times3, IntStream.range(0, n).boxed().collect(Collectors.toList()));
    }
  }

  private static List<Integer> expected(int n) {
    return IntStream.range(0, n).map(i -> i * 3).boxed().collect(Collectors.toList());
  }

  @Test
  void theDriverListensOnTheFirstFreePortOfTheRange() throws Exception {
    try (ServerSocket busy = new ServerSocket()) {
      busy.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      int p = busy.getLocalPort();
      Map<String, Object> options = Map.of("driver.host", "127.0.0.1", "driver.bindAddress", "127.0.0.1",
          "driver.port", p + "-" + (p + 3), "channel", "driver");
      try (SparkBackend backend = new SparkBackend(sc, options)) {
        assertThat(run(backend, 50)).isEqualTo(expected(50));
        int port = DriverChannel.forContext(sc, SparkJoblibConf.from(sc.getConf(), options)).port();
        assertThat(port).as("a port of the range, not the busy one").isBetween(p + 1, p + 3);
      }
      Map<String, Object> allBusy = Map.of("driver.bindAddress", "127.0.0.1", "driver.port", p + "-" + p);
      try (SparkBackend backend = new SparkBackend(sc, allBusy)) {
        Throwable t = catchThrowable(() -> run(backend, 1));
        assertThat(ExceptionUtils.getThrowableList(t)).extracting(Throwable::getMessage)
            .anyMatch(m -> m != null && m.contains("no free port in port " + p)
                && m.contains("spark.joblib4j.driver.port") && m.contains("40000-40100"));
      }
    }
  }

  @Test
  void anUnreachableDriverFailsTheCallFastNamingTheSettingsWhenItMayNotFallBack() {
    Map<String, Object> options = Map.of("driver.host", UNREACHABLE, "driver.bindAddress", "127.0.0.1",
        "driver.connectTimeout", "2s", "channel", "driver");
    try (SparkBackend backend = new SparkBackend(sc, options)) {
      long t0 = System.nanoTime();
      Throwable t = catchThrowable(() -> run(backend, 10));
      long millis = (System.nanoTime() - t0) / 1_000_000;
      assertThat(t).hasMessageContaining("cannot reach the driver")
          .hasMessageContaining(UNREACHABLE)
          .hasMessageContaining("spark.joblib4j.driver.host")
          .hasMessageContaining("spark.joblib4j.driver.port")
          .hasMessageContaining("spark.joblib4j.channel=job");
      System.out.println("RELIABILITY unreachable driver, channel=driver: failed after " + millis + " ms");
      assertThat(run(new SparkBackend(sc), 5)).as("Spark is fine afterwards").isEqualTo(expected(5));
    }
  }

  @Test
  void anUnreachableDriverMovesTheCallAndTheNextOnesToSparkJobs() {
    Map<String, Object> options = Map.of("driver.host", UNREACHABLE, "driver.bindAddress", "127.0.0.1",
        "driver.port", "0", "driver.connectTimeout", "2s");
    try (SparkBackend backend = new SparkBackend(sc, options)) {
      assertThat(backend.traits().reportsTaskProgress()).isTrue();
      long t0 = System.nanoTime();
      assertThat(run(backend, 200)).isEqualTo(expected(200));
      long millis = (System.nanoTime() - t0) / 1_000_000;
      assertThat(warnings).filteredOn(w -> w.contains("run their batches as Spark jobs")).hasSize(1).first()
          .asString().contains(UNREACHABLE).contains("spark.joblib4j.driver.host").contains("spark.joblib4j.channel");
      assertThat(backend.traits().reportsTaskProgress()).as("on the job path a batch reports at its end").isFalse();
      long t1 = System.nanoTime();
      assertThat(run(backend, 200)).as("the next call goes to Spark jobs at once").isEqualTo(expected(200));
      long again = (System.nanoTime() - t1) / 1_000_000;
      assertThat(warnings).filteredOn(w -> w.contains("run their batches as Spark jobs")).hasSize(1);
      System.out.println("RELIABILITY unreachable driver, channel=auto: first call " + millis + " ms, next " + again + " ms");
    }
  }

  @Test
  void aServiceThatAcceptsButIsNoDriverCountsAsUnreachableAfterTheConnectTimeout() throws Exception {
    // executors reach 127.0.0.2:P, where something accepts connections and never answers; the driver
    // binds 127.0.0.1:P, held here until just before the call: a port free on 127.0.0.2 alone was
    // once taken on 127.0.0.1 by another module's test running beside this one
    ServerSocket reserved = new ServerSocket();
    reserved.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
    try (ServerSocket silent = new ServerSocket()) {
      silent.bind(new InetSocketAddress(InetAddress.getByName(WireTap.TAPPED_HOST), reserved.getLocalPort()));
      List<Socket> held = new ArrayList<>();
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            held.add(silent.accept());
          }
        } catch (java.io.IOException closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      int p = silent.getLocalPort();
      Map<String, Object> options = Map.of("driver.host", WireTap.TAPPED_HOST, "driver.bindAddress", "127.0.0.1",
          "driver.port", p + "-" + p, "driver.connectTimeout", "2s");
      reserved.close();
      try (SparkBackend backend = new SparkBackend(sc, options)) {
        assertThat(run(backend, 20)).isEqualTo(expected(20));
      }
      assertThat(warnings).anyMatch(w -> w.contains("no joblib4j driver answered there within 2000 ms")
          && w.contains("run their batches as Spark jobs"));
    } finally {
      reserved.close();
    }
  }
}
