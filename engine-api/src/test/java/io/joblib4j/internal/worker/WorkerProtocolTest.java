package io.joblib4j.internal.worker;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Delayed;
import io.joblib4j.JoblibException;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.fn.Action;
import io.joblib4j.internal.parallel.TaskBatchForm;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.BatchFields;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.Hello;
import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.spi.worker.WorkerLink;
import io.joblib4j.spi.worker.WorkerLoop;
import io.joblib4j.testing.Unreadable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.StreamCorruptedException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The protocol between a parent and one worker, both ends in this JVM over loopback: the
 * handshake and what it refuses, the initializer shipped until the worker ran it, and the
 * failures a worker reports as the caller's errors.
 */
@Timeout(60)
class WorkerProtocolTest {
  private static final byte[] TOKEN = {1, 2, 3, 4, 5, 6, 7, 8};
  private ServerSocket server;
  private Thread workerThread;

  @BeforeEach
  void listen() throws IOException {
    server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
    if (workerThread != null) {
      workerThread.join(10_000);
    }
  }

  /** A batch as the core makes them, enough for the protocol: runs its tasks in order. */
  record TestBatch(List<Delayed<?>> tasks) implements Batch {
    @Override
    public String callId() {
      return "call-1";
    }

    @Override
    public int index() {
      return 0;
    }

    @Override
    public int size() {
      return tasks.size();
    }

    @Override
    public String description() {
      return "test batch";
    }

    @Override
    public BatchOutcome run(String worker, IntConsumer taskDone) {
      Object[] results = new Object[tasks.size()];
      for (int i = 0; i < results.length; i++) {
        try {
          results[i] = tasks.get(i).call();
        } catch (Throwable t) {
          return BatchOutcome.failure(i, t, worker);
        }
        taskDone.accept(i + 1);
      }
      return BatchOutcome.success(results, worker);
    }
  }

  /** What a parent hears about batches, in order. */
  static final class Heard implements WorkerLink.Events, BatchListener {
    final BlockingQueue<Object> events = new ArrayBlockingQueue<>(100);
    final BatchCodec codec;
    final Batch batch;

    Heard(BatchCodec codec, Batch batch) {
      this.codec = codec;
      this.batch = batch;
    }

    @Override
    public void started(long job) {
      events.add("started " + job);
    }

    @Override
    public void progress(long job, int tasksDone) {}

    @Override
    public void outcome(long job, byte[] results) {
      codec.completed(results, batch, "worker", this);
    }

    @Override
    public void spilledOutcome(long job, java.nio.file.Path file, long bytes) {
      events.add("spilled " + bytes);
      codec.completed(file, bytes, batch, "worker", this);
    }

    @Override
    public void failed(long job, FailureReport report) {
      codec.failed(report, batch, "worker", this);
    }

    @Override
    public void started() {}

    @Override
    public void completed(BatchOutcome outcome) {
      events.add(outcome);
    }

    @Override
    public void failed(Throwable infrastructureFailure) {
      events.add(infrastructureFailure);
    }

    Object next() throws InterruptedException {
      Object e = events.poll(30, TimeUnit.SECONDS);
      assertThat(e).as("an event within 30 s").isNotNull();
      return e;
    }
  }

  private WorkerLink startWorker(WorkerLoop.Builder loop) throws IOException {
    workerThread = new Thread(() -> {
      try (Socket s = new Socket(server.getInetAddress(), server.getLocalPort())) {
        loop.build().serve(s, TOKEN, "scope-1");
      } catch (IOException e) {
        // the test closed the link
      }
    }, "test-worker");
    workerThread.setDaemon(true);
    workerThread.start();
    WorkerLink link = WorkerLink.accept(server.accept(), Duration.ofSeconds(10));
    assertThat(link.hello().proves(TOKEN)).isTrue();
    assertThat(link.hello().compatible()).isTrue();
    assertThat(link.hello().scope()).isEqualTo("scope-1");
    assertThat(link.worker()).isEqualTo("test worker");
    return link;
  }

  private static void readInBackground(WorkerLink link, WorkerLink.Events events) {
    Thread t = new Thread(() -> {
      try {
        link.readFrames(events);
      } catch (IOException e) {
        // the link was closed
      }
    }, "test-reader");
    t.setDaemon(true);
    t.start();
  }

  @Test
  void resultsOverTheSpillSizeComeThroughAFileThatTheParentDeletes(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path spill) throws Exception {
    BatchCodec codec = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES).build();
    Batch batch = new TestBatch(new ArrayList<>(List.of(delayed(n -> new byte[n], 100_000), delayed(() -> "small"))));
    try (WorkerLink link = startWorker(WorkerLoop.builder("test worker").wireFormat(WireFormat.SAME_CLASS_FILES)
        .spillResults(spill, 50_000))) {
      link.acceptSpilledResults(spill);
      Heard heard = new Heard(codec, batch);
      readInBackground(link, heard);
      link.sendBatch(1, null, codec.encodeBatch(batch));
      assertThat(heard.next()).isEqualTo("started 1");
      assertThat((String) heard.next()).startsWith("spilled ");
      BatchOutcome outcome = (BatchOutcome) heard.next();
      assertThat((byte[]) outcome.results()[0]).hasSize(100_000);
      assertThat(outcome.results()[1]).isEqualTo("small");
      try (var files = java.nio.file.Files.list(spill)) {
        assertThat(files).as("read and deleted").isEmpty();
      }
      link.sendExit();
    }
  }

  @Test
  void aSpilledResultIsAProtocolErrorWhereTheParentDidNotAskForIt(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path spill) throws Exception {
    BatchCodec codec = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES).build();
    Batch batch = new TestBatch(new ArrayList<>(List.of(delayed(n -> new byte[n], 100_000))));
    try (WorkerLink link = startWorker(WorkerLoop.builder("test worker").wireFormat(WireFormat.SAME_CLASS_FILES)
        .spillResults(spill, 0))) {
      link.sendBatch(1, null, codec.encodeBatch(batch));
      Heard heard = new Heard(codec, batch);
      assertThatThrownBy(() -> link.readFrames(heard)).isInstanceOf(java.io.StreamCorruptedException.class)
          .hasMessageContaining("does not take");
    }
  }

  static final AtomicInteger INITIALIZED = new AtomicInteger();

  @Test
  void aCoreBatchOfPlainTasksCrossesAndItsResultsComeBackPlain() throws Exception {
    BatchCodec codec = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES)
        .batchFields(TaskBatchForm.instance()).build();
    Batch batch = PlainBatchesTest.coreBatch(List.of(delayed(x -> x + 1, 41), delayed(() -> "two")));
    List<Boolean> resultsPlain = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (WorkerLink link = startWorker(WorkerLoop.builder("test worker").wireFormat(WireFormat.SAME_CLASS_FILES)
        .batchFields(TaskBatchForm.instance()))) {
      Heard heard = new Heard(codec, batch);
      readInBackground(link, recordingOutcomes(heard, resultsPlain));
      byte[] bytes = codec.encodeBatch(batch);
      assertThat(PlainBatches.isPlain(bytes)).isTrue();
      link.sendBatch(1, null, bytes);
      assertThat(heard.next()).isEqualTo("started 1");
      assertThat(((BatchOutcome) heard.next()).results()).containsExactly(42, "two");
      link.sendExit();
    }
    assertThat(resultsPlain).containsExactly(true);
  }

  @Test
  void aWorkerGivenNoBatchFieldsRefusesAPlainBatchAsUnreadable() throws Exception {
    BatchCodec codec = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES)
        .batchFields(TaskBatchForm.instance()).build();
    Batch batch = PlainBatchesTest.coreBatch(List.of(delayed(x -> x + 1, 41)));
    try (WorkerLink link = startWorker(WorkerLoop.builder("test worker").wireFormat(WireFormat.SAME_CLASS_FILES))) {
      Heard heard = new Heard(codec, batch);
      readInBackground(link, heard);
      link.sendBatch(1, null, codec.encodeBatch(batch));
      assertThat(heard.next()).isInstanceOfSatisfying(TaskSerializationException.class,
          e -> assertThat(e).hasMessageContaining("no BatchFields"));
      link.sendExit();
    }
  }

  /** {@code heard}'s events, noting whether each outcome's bytes were plain results. */
  private static WorkerLink.Events recordingOutcomes(Heard heard, List<Boolean> plain) {
    return new WorkerLink.Events() {
      @Override
      public void started(long job) {
        heard.started(job);
      }

      @Override
      public void progress(long job, int tasksDone) {}

      @Override
      public void outcome(long job, byte[] results) {
        plain.add(PlainResults.isPlain(results));
        heard.outcome(job, results);
      }

      @Override
      public void failed(long job, FailureReport report) {
        heard.failed(job, report);
      }
    };
  }

  @Test
  void batchesRunAfterTheInitializerWhichRunsOncePerWorkerJvm() throws Exception {
    BatchCodec codec = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES).build();
    String unique = UUID.randomUUID().toString(); // a new initializer for this JVM's run-once registry
    Action init = () -> INITIALIZED.incrementAndGet();
    byte[] initializer = codec.encodeInitializer((Action) () -> {
      unique.hashCode();
      init.invoke();
    });
    Batch batch = new TestBatch(new ArrayList<>(List.of(delayed(x -> x + 1, 41), delayed(() -> "two"))));
    int before = INITIALIZED.get();
    try (WorkerLink link = startWorker(WorkerLoop.builder("test worker").wireFormat(WireFormat.SAME_CLASS_FILES))) {
      Heard heard = new Heard(codec, batch);
      readInBackground(link, heard);
      for (long job = 1; job <= 2; job++) {
        link.sendBatch(job, initializer, codec.encodeBatch(batch));
        assertThat(heard.next()).isEqualTo("started " + job);
        BatchOutcome outcome = (BatchOutcome) heard.next();
        assertThat(outcome.results()).containsExactly(42, "two");
        assertThat(outcome.worker()).isEqualTo("worker");
      }
      link.sendExit();
    }
    assertThat(INITIALIZED.get() - before).as("run once, by the first batch").isEqualTo(1);
  }

  @Test
  void aTaskTheWorkerCannotReadAndResultsOverTheLimitAreReportedAsTheCallersErrors() throws Exception {
    BatchCodec codec = BatchCodec.builder().classPathHint("ship the classes").build();
    Batch unreadable = new TestBatch(new ArrayList<>(List.of(delayed(x -> x, "fine"), delayed(x -> x, new Unreadable()))));
    Batch large = new TestBatch(new ArrayList<>(List.of(delayed(() -> new byte[10_000]))));
    try (WorkerLink link = startWorker(WorkerLoop.builder("test worker").maxResultBytes(1000, "; raise the limit"))) {
      Heard forUnreadable = new Heard(codec, unreadable);
      Heard forLarge = new Heard(codec, large);
      Heard[] current = {forUnreadable};
      readInBackground(link, new WorkerLink.Events() {
        @Override
        public void started(long job) {}

        @Override
        public void progress(long job, int tasksDone) {}

        @Override
        public void outcome(long job, byte[] results) {
          current[0].outcome(job, results);
        }

        @Override
        public void failed(long job, FailureReport report) {
          current[0].failed(job, report);
        }
      });
      link.sendBatch(1, null, codec.encodeBatch(unreadable));
      assertThat(forUnreadable.next()).isInstanceOfSatisfying(TaskSerializationException.class, e -> {
        assertThat(e).hasMessageContaining("task 1 of test batch could not be deserialized in worker worker")
            .hasMessageContaining("Unreadable refuses to be read").hasCauseInstanceOf(InvalidObjectException.class);
      });
      current[0] = forLarge;
      link.sendBatch(2, null, codec.encodeBatch(large));
      assertThat(forLarge.next()).isExactlyInstanceOf(JoblibException.class).asString()
          .contains("more than the 1000 bytes allowed; raise the limit");
    }
  }

  @Test
  void aClassTheWorkerLacksIsReportedAsMissingNotAsWhatJavaSerializationSaysNext(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // a function class compiled now, into a folder only this side's loader reads: the worker lacks it
    java.nio.file.Path src = java.nio.file.Files.writeString(dir.resolve("Echo.java"), "package onlyhere;\n"
        + "public class Echo implements io.joblib4j.fn.Fn1<String, String> {\n"
        + "  private static final long serialVersionUID = 1L;\n"
        + "  public String invoke(String x) { return x; }\n}\n");
    String cp = java.nio.file.Path.of(io.joblib4j.fn.Fn1.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        + java.io.File.pathSeparator + java.nio.file.Path.of(
            org.apiguardian.api.API.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-cp", cp, "-d",
        dir.toString(), src.toString())).isZero();
    try (java.net.URLClassLoader parentSide = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()},
        WorkerProtocolTest.class.getClassLoader())) {
      @SuppressWarnings("unchecked")
      io.joblib4j.fn.Fn1<String, String> echo = (io.joblib4j.fn.Fn1<String, String>)
          parentSide.loadClass("onlyhere.Echo").getConstructor().newInstance();
      BatchCodec codec = BatchCodec.builder().classPathHint("ship the classes").build();
      Batch batch = new TestBatch(new ArrayList<>(List.of(delayed(echo, "x"))));
      try (WorkerLink link = startWorker(WorkerLoop.builder("test worker"))) {
        Heard heard = new Heard(codec, batch);
        readInBackground(link, heard);
        link.sendBatch(1, null, codec.encodeBatch(batch));
        Object reported = heard.next();
        reported = reported instanceof String ? heard.next() : reported; // "started 1", if the worker got that far
        assertThat(reported).isInstanceOfSatisfying(TaskSerializationException.class, e ->
            assertThat(e).hasMessageContaining("task 0 of test batch could not be deserialized in worker")
                .hasMessageContaining("ClassNotFoundException: onlyhere.Echo")
                .hasMessageContaining("ship the classes"));
      }
    }
  }
  @Test
  void aPeerOfAnotherVersionIsKnownByItsVersionTokenAndScope() throws Exception {
    try (Socket peer = new Socket(server.getInetAddress(), server.getLocalPort())) {
      DataOutputStream out = new DataOutputStream(peer.getOutputStream());
      byte[] scope = "call-9".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      Frames.writeHeader(out, 4 + 4 + TOKEN.length + 4 + scope.length + 12, Frames.HELLO);
      out.writeInt(Hello.VERSION + 1);
      Frames.writeBytes(out, TOKEN);
      Frames.writeBytes(out, scope);
      out.write(new byte[12]); // fields of a layout this version does not know
      out.flush();
      try (WorkerLink link = WorkerLink.accept(server.accept(), Duration.ofSeconds(10))) {
        assertThat(link.hello().compatible()).isFalse();
        assertThat(link.hello().proves(TOKEN)).isTrue();
        assertThat(link.hello().scope()).isEqualTo("call-9");
        assertThat(link.worker()).contains("protocol version " + (Hello.VERSION + 1));
      }
    }
  }

  @Test
  void aPeerThatDoesNotSayHelloOrSaysNothingIsDropped() throws Exception {
    try (Socket stranger = new Socket(server.getInetAddress(), server.getLocalPort())) {
      DataOutputStream out = new DataOutputStream(stranger.getOutputStream());
      out.writeInt(1 << 30); // a frame larger than a HELLO may be: nothing that size is allocated
      out.writeByte(Frames.HELLO);
      out.flush();
      Socket accepted = server.accept();
      assertThatThrownBy(() -> WorkerLink.accept(accepted, Duration.ofSeconds(10)))
          .isInstanceOf(StreamCorruptedException.class);
      assertThat(accepted.isClosed()).isTrue();
    }
    try (Socket silent = new Socket(server.getInetAddress(), server.getLocalPort())) {
      Socket accepted = server.accept();
      assertThatThrownBy(() -> WorkerLink.accept(accepted, Duration.ofMillis(200)))
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(accepted.isClosed()).isTrue();
      assertThat(silent.getInputStream().read()).as("the peer sees the connection closed").isEqualTo(-1);
    }
  }
}
