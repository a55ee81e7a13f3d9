package io.joblib4j.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Parallel;
import io.joblib4j.spark.connect.ConnectServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spark Connect client that attaches only the bundle, as a notebook on a Databricks shared
 * cluster does: a child JVM whose class path is the Connect client's and the bundle jar (no other
 * joblib4j jar) runs {@code backend("spark")} and a memoized function on a Connect server's
 * executors. Before the bundle carried the Connect path, {@code backend("spark")} there failed,
 * naming the joblib4j-spark-connect jar to add. Run by the bundles that carry the Connect path (Spark
 * 4, and Spark 3.5 with Scala 2.12, whose 3.5.0 client also needs what its jar lacks: {@link
 * Bundle#connectClientExtras}).
 */
class ConnectClientWithOnlyTheBundleIT {

  /** The client program: a remote session, a Parallel on it and a cached function. */
  public static final class Client {
    private static final AtomicInteger COMPUTED = new AtomicInteger();

    static int square(int x) {
      COMPUTED.incrementAndGet();
      return x * x;
    }

    public static void main(String[] args) throws Exception {
      org.apache.spark.sql.SparkSession session = RemoteSession.open("sc://127.0.0.1:" + args[0]);
      Memory memory = Memory.builder(args[1]).verbose(0).build();
      MemoizedFn1<Integer, Integer> cached = memory.cache(Client::square);
      try (Parallel p = Parallel.builder().backend("spark").nJobs(2).build()) {
        System.out.println("RESULT " + p.map((Integer x) -> x + 1, List.of(1, 2, 3)));
        System.out.println("PIDS " + p.map((Integer x) -> ProcessHandle.current().pid(), List.of(1, 2)));
        System.out.println("CACHED " + p.map(cached, List.of(2, 3)) + " " + p.map(cached, List.of(2, 3)));
      }
      System.out.println("CLIENT PID " + ProcessHandle.current().pid() + ", computed here " + COMPUTED.get());
      session.close();
      System.exit(0);
    }
  }

  @Test
  void aConnectClientWithOnlyTheBundleRunsParallelAndMemoryOnTheServersExecutors(@TempDir Path dir) throws Exception {
    List<Path> client = Bundle.connectClientClasspath().orElseThrow();
    assertThat(client).as("the client's class path holds no joblib4j jar")
        .noneMatch(p -> p.getFileName().toString().startsWith("joblib4j"));
    ConnectServer.Started server = ConnectServer.startAnother(dir.resolve("server.log"));
    try {
      List<String> classpath = new ArrayList<>();
      client.forEach(p -> classpath.add(p.toString()));
      Bundle.connectClientExtras().forEach(p -> classpath.add(p.toString()));
      classpath.add(Bundle.jar().toString());
      // the client program's own classes, as an application's: the backend ships them to the server
      classpath.add(Path.of(Client.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx1g", "-XX:+UseParallelGC"));
      cmd.addAll(Arrays.asList(System.getProperty("joblib4j.it.jvmFlags", "").trim().split("\\s+")));
      cmd.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), Client.class.getName(),
          Integer.toString(server.port()), dir.resolve("cache").toString()));
      Path out = dir.resolve("client.out");
      Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      boolean exited = child.waitFor(10, TimeUnit.MINUTES);
      String output = Files.readString(out);
      assertThat(exited).as(output).isTrue();
      assertThat(child.exitValue()).as(output).isZero();
      assertThat(output).contains("RESULT [2, 3, 4]", "CACHED [4, 9] [4, 9]")
          .contains("PIDS [" + server.process().pid() + ", " + server.process().pid() + "]")
          .contains("computed here 0");
    } finally {
      server.process().destroy();
      if (!server.process().waitFor(30, TimeUnit.SECONDS)) {
        server.process().destroyForcibly();
      }
    }
  }
}
