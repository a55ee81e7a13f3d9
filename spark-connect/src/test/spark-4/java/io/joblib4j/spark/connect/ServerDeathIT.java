package io.joblib4j.spark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.JoblibException;
import io.joblib4j.Parallel;
import io.joblib4j.spark.SparkBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connect.client.RetryPolicy;
import org.apache.spark.sql.connect.client.SparkConnectClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;

/**
 * A Spark Connect server killed (-9) while a call's tasks run on it: a server of its own. In the
 * spark-4 test folder: it shortens the client's retries with the 4.x client's {@code RetryPolicy},
 * which the 3.5.0 client lacks.
 */
class ServerDeathIT {
  /** Marks that task {@code i} runs (the server shares this machine's disk), then works for a minute. */
  static int markAndWork(String folder, int i) throws Exception {
    Files.writeString(Path.of(folder, "running-" + i), "");
    Thread.sleep(60_000); // stands for a long task; the server dies meanwhile
    return i;
  }

  @Test
  @Timeout(300)
  void aServerKilledMidCallFailsTheCallSayingSo(@TempDir Path dir) throws Exception {
    ConnectServer.Started server = ConnectServer.startAnother(dir.resolve("server.log"));
    try {
      // the client's default retries (15, backing off to a minute each) outlast any test: 2 here
      RetryPolicy d = RetryPolicy.defaultPolicy();
      RetryPolicy quick = d.copy(Option.apply(2), d.copy$default$2(), d.copy$default$3(), d.copy$default$4(),
          d.copy$default$5(), d.copy$default$6(), d.copy$default$7(), d.copy$default$8(), d.copy$default$9(),
          d.copy$default$10());
      SparkSession session = org.apache.spark.sql.connect.SparkSession.builder().client(SparkConnectClient.builder()
          .connectionString("sc://127.0.0.1:" + server.port()).retryPolicy(quick).build()).create();
      String folder = dir.toString();
      try (SparkBackend spark = ConnectServer.sparkBackend(session, ConnectServer.options());
           Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
        CompletableFuture<List<Integer>> call = CompletableFuture.supplyAsync(() ->
            p.map((Integer i) -> markAndWork(folder, i), List.of(0, 1)));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!(Files.exists(dir.resolve("running-0")) && Files.exists(dir.resolve("running-1")))) {
          assertThat(System.nanoTime()).as("both tasks start on the server").isLessThan(until);
          Thread.sleep(50); // the tasks run in another JVM: their files are what can be watched
        }
        server.process().destroyForcibly();
        long killed = System.nanoTime();
        Throwable failure = null;
        try {
          call.get(240, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          failure = e.getCause();
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
        System.out.println("the call failed " + seconds + " s after the kill: " + failure);
        assertThat(failure).isInstanceOf(JoblibException.class);
        assertThat(failure.getMessage()).contains("Spark Connect operation", "could not be reached",
            "retry policy");
        assertThat(seconds).as("as soon as the client's retries give up").isLessThan(60);
      }
    } finally {
      server.process().destroyForcibly();
    }
  }
}
