package io.joblib4j.internal.worker;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Jazzer fuzz target: the parent's read side of the worker protocol, fed what a peer sends. First
 * the HELLO, which anyone who can reach the parent's port may send before proving anything; then
 * the frames of a worker, whose OUTCOME and FAILED bodies go to {@link BatchCodec#completed} and
 * {@link BatchCodec#failed} of both wire formats (the processes backend's reads plain results
 * without Java serialization). The property: the link fails only with an IOException, and the codec
 * reports what it cannot read to the listener instead of throwing; in particular no declared
 * length makes it allocate more than the bytes sent.
 *
 * <p>What a worker that proved its token sends is deserialized as it is (the protocol trusts its
 * workers: who may connect is the token's business), so Jazzer's deserialization and reflective-call
 * sanitizers are off for this target: a result naming Jazzer's marker class {@code jaz.Zer} would be
 * made as any class a worker names is, by design. The marker reads {@code jazzer.disabled_hooks} each
 * time it is used, so this target adds them there when it fuzzes (in a JVM of its own, engine-api's
 * pom), and leaves the JVM of the regression run alone; the robustness of that reading is what is
 * fuzzed.
 */
class WorkerFramesFuzzTest {
  static {
    if (System.getenv("JAZZER_FUZZ") != null) {
      String off = System.getProperty("jazzer.disabled_hooks", "");
      System.setProperty("jazzer.disabled_hooks", (off.isEmpty() ? "" : off + java.io.File.pathSeparator)
          + "com.code_intelligence.jazzer.sanitizers.Deserialization" + java.io.File.pathSeparator
          + "com.code_intelligence.jazzer.sanitizers.ReflectiveCall");
    }
  }

  private static final BatchCodec CODEC = BatchCodec.builder().build();
  /** The processes backend's: plain results are read without Java serialization. */
  private static final BatchCodec SAME_FILES_CODEC = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES)
      .batchFields(io.joblib4j.internal.parallel.TaskBatchForm.instance()).build();
  private static final WorkerProtocolTest.TestBatch BATCH = new WorkerProtocolTest.TestBatch(new ArrayList<>());

  /** A socket over a byte array: all the link asks of it. */
  static final class BytesSocket extends Socket {
    private final InputStream in;

    BytesSocket(byte[] data) {
      this.in = new ByteArrayInputStream(data);
    }

    @Override
    public InputStream getInputStream() {
      return in;
    }

    @Override
    public OutputStream getOutputStream() {
      return new ByteArrayOutputStream();
    }

    @Override
    public void setTcpNoDelay(boolean on) {}

    @Override
    public void setKeepAlive(boolean on) {}

    @Override
    public synchronized void setSoTimeout(int timeout) {}

    @Override
    public synchronized void close() {}
  }

  /** Collects what the codec tells; never throws. */
  static final class Listener implements BatchListener {
    final List<Object> heard = new ArrayList<>();

    @Override
    public void started() {}

    @Override
    public void completed(BatchOutcome outcome) {
      heard.add(outcome);
    }

    @Override
    public void failed(Throwable error) {
      heard.add(error);
    }
  }

  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void framesFailOnlyWithIoErrors(byte[] data) {
    WorkerLink link;
    try {
      link = WorkerLink.accept(new BytesSocket(data), Duration.ofSeconds(1));
    } catch (IOException expected) {
      return;
    }
    Listener listener = new Listener();
    try {
      link.readFrames(new WorkerLink.Events() {
        @Override
        public void started(long job) {}

        @Override
        public void progress(long job, int tasksDone) {}

        @Override
        public void outcome(long job, byte[] results) {
          CODEC.completed(results, BATCH, "fuzz", listener);
          SAME_FILES_CODEC.completed(results, BATCH, "fuzz", listener);
        }

        @Override
        public void failed(long job, FailureReport report) {
          CODEC.failed(report, BATCH, "fuzz", listener);
          SAME_FILES_CODEC.failed(report, BATCH, "fuzz", listener);
        }
      });
    } catch (IOException expected) {
      // the stream ended, or was out of step
    }
  }
}
