package io.joblib4j.internal.worker;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Delayed;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.fn.Fn1;
import io.joblib4j.internal.parallel.TaskBatchForm;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.worker.ArgumentSharer;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.BatchFields;
import io.joblib4j.spi.worker.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Batches of plain tasks and their results cross without Java serialization, come back as the same
 * tasks and values, and everything else is left to Java serialization; what a reader cannot read
 * fails with an IOException.
 */
class PlainBatchesTest {
  private static final ClassLoader LOADER = PlainBatchesTest.class.getClassLoader();

  private static BatchCodec codec() {
    return BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES).batchFields(TaskBatchForm.instance()).build();
  }

  /** The core's batch holding {@code tasks}, made as a worker makes it. */
  static Batch coreBatch(List<Delayed<?>> tasks) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF("call-7");
    out.writeInt(3);
    out.writeLong(40);
    out.writeUTF("PlainBatchesTest.f");
    out.writeInt(1);
    out.writeInt(2);
    return TaskBatchForm.instance().read(new DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())),
        new ArrayList<>(tasks));
  }

  private static Batch read(byte[] bytes) throws Exception {
    return new PlainBatches.Reader(TaskBatchForm.instance(), LOADER).read(bytes);
  }

  static final class Identity implements Fn1<Integer, Integer> {
    private static final long serialVersionUID = 1L;

    @Override
    public Integer invoke(Integer x) {
      return x;
    }
  }

  static int twice(int x) {
    return 2 * x;
  }

  @Test
  void aCoreBatchOfPlainTasksIsWrittenWithoutJavaSerializationAndRunsTheSame() throws Exception {
    int k = 7;
    String suffix = "!";
    Fn1<Integer, Integer> times = x -> x * k;
    Batch batch = coreBatch(List.of(delayed(times, 3), delayed(times, -1), delayed((String a, Object b) -> a + b + suffix,
        "x", null), delayed(PlainBatchesTest::twice, 21), delayed(() -> List.of(1.5, 2L, 3f, true))));

    byte[] bytes = codec().encodeBatch(batch);

    assertThat(PlainBatches.isPlain(bytes)).isTrue();
    Batch again = read(bytes);
    assertThat(again.callId()).isEqualTo("call-7");
    assertThat(again.index()).isEqualTo(3);
    assertThat(again.firstTask()).isEqualTo(40);
    assertThat(again.description()).isEqualTo(batch.description());
    BatchOutcome outcome = again.run("w", n -> { });
    assertThat(outcome.succeeded()).isTrue();
    assertThat(outcome.results()).containsExactly(21, -7, "xnull!", 42, List.of(1.5, 2L, 3f, true));
  }

  @Test
  void theTasksOfOneFunctionCarryItOnce() throws Exception {
    Fn1<Integer, Integer> f = x -> x + 1;
    List<Delayed<?>> hundred = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      hundred.add(delayed(f, i));
    }
    byte[] one = codec().encodeBatch(coreBatch(hundred.subList(0, 1)));
    byte[] all = codec().encodeBatch(coreBatch(hundred));
    assertThat(all.length - one.length).as("99 more tasks: a head byte and a tagged int each").isEqualTo(99 * 6);
    assertThat(read(all).run("w", n -> { }).results()[99]).isEqualTo(100);
  }

  @Test
  void anythingNotPlainIsLeftToJavaSerialization() throws Exception {
    List<Integer> list = new ArrayList<>(List.of(1));
    Fn1<Integer, Integer> capturesAList = x -> x + list.size();
    Fn1<Integer, Integer> aClass = new Identity();
    List<Batch> notPlain = List.of(coreBatch(List.of(delayed((int[] a) -> a.length, new int[3]))),
        coreBatch(List.of(delayed(x -> x, 1), delayed((List<Integer> l) -> l.size(), list))),
        coreBatch(List.of(delayed(capturesAList, 1))),
        coreBatch(List.of(delayed(aClass, 1))),
        coreBatch(List.of(delayed(x -> x, "s".repeat(30_000)))),
        new WorkerProtocolTest.TestBatch(new ArrayList<>(List.of(delayed(x -> x, 1)))));
    for (Batch b : notPlain) {
      byte[] bytes = codec().encodeBatch(b);
      assertThat(PlainBatches.isPlain(bytes)).as(b.toString()).isFalse();
      assertThat(bytes[0]).as("Java serialization's magic").isEqualTo((byte) 0xAC);
    }
    BatchFields tooLongForWriteUtf = new BatchFields() {
      @Override
      public boolean knows(Batch batch) {
        return true;
      }

      @Override
      public void write(Batch batch, java.io.DataOutput out) throws IOException {
        throw new java.io.UTFDataFormatException("encoded string too long: 70000 bytes");
      }

      @Override
      public Batch read(java.io.DataInput in, List<Delayed<?>> tasks) {
        throw new AssertionError("never read");
      }
    };
    byte[] longName = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES).batchFields(tooLongForWriteUtf)
        .build().encodeBatch(new WorkerProtocolTest.TestBatch(new ArrayList<>(List.of(delayed(x -> x, 1)))));
    assertThat(longName[0]).as("a name writeUTF cannot hold: Java serialization").isEqualTo((byte) 0xAC);
    Batch plain = coreBatch(List.of(delayed(x -> x, 1)));
    assertThat(PlainBatches.isPlain(BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES).build()
        .encodeBatch(plain))).as("a codec given no batch fields").isFalse();
    assertThat(PlainBatches.isPlain(BatchCodec.builder().batchFields(TaskBatchForm.instance()).build()
        .encodeBatch(plain))).as("the portable format").isFalse();
  }

  @Test
  void aLambdaOfAClassTheWorkerCannotLoadIsReportedAsBefore() throws Exception {
    BatchCodec refusing = BatchCodec.builder().wireFormat(WireFormat.SAME_CLASS_FILES)
        .batchFields(TaskBatchForm.instance())
        .refuseClasses(c -> c == PlainBatchesTest.class ? "it is not on the workers' class path" : null).build();
    assertThatThrownBy(() -> refusing.encodeBatch(coreBatch(List.of(delayed(x -> x, 1)))))
        .isInstanceOf(TaskSerializationException.class)
        .hasMessageContaining("it is not on the workers' class path");
  }

  @Test
  void aTruncatedOrAlteredPlainBatchFailsWithAnIoException() throws Exception {
    byte[] bytes = codec().encodeBatch(coreBatch(List.of(delayed(x -> x, "a"), delayed(x -> x, 2))));
    assertThat(read(bytes).size()).isEqualTo(2);
    for (int n = 0; n < bytes.length; n++) {
      byte[] cut = Arrays.copyOf(bytes, n);
      assertThatThrownBy(() -> read(cut)).as("cut to %d bytes", n).isInstanceOf(IOException.class);
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThatThrownBy(() -> read(longer)).isInstanceOf(StreamCorruptedException.class).hasMessageContaining("after");
    byte[] lying = bytes.clone();
    lying[3] = 0x7f; // a task count of about two billion
    assertThatThrownBy(() -> read(lying)).isInstanceOf(StreamCorruptedException.class).hasMessageContaining("tasks in");
    byte[] noFunction = bytes.clone();
    noFunction[7] |= (byte) 0x80; // the first task says "the function before"
    assertThatThrownBy(() -> read(noFunction)).isInstanceOf(StreamCorruptedException.class)
        .hasMessageContaining("names no function");
    assertThatThrownBy(() -> new PlainBatches.Reader(null, LOADER).read(bytes))
        .isInstanceOf(StreamCorruptedException.class).hasMessageContaining("no BatchFields");
  }

  @Test
  void aLambdaThatNoLongerMatchesItsClassIsRefused() throws Exception {
    byte[] bytes = codec().encodeBatch(coreBatch(List.of(delayed(x -> x, 1))));
    String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
    int at = text.indexOf("lambda$");
    assertThat(at).isPositive();
    byte[] renamed = bytes.clone();
    renamed[at] = 'L'; // the implementation method's name no longer matches any lambda of the class
    assertThatThrownBy(() -> read(renamed)).isInstanceOf(java.io.InvalidObjectException.class)
        .hasMessageContaining("cannot be made").hasRootCauseInstanceOf(IllegalArgumentException.class);
    byte[] missing = text.replace(PlainBatchesTest.class.getName(), PlainBatchesTest.class.getName().replace('P', 'Q'))
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> read(missing)).isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void plainResultsComeBackAsTheSameValuesAndAnythingElseIsLeftToJavaSerialization() throws Exception {
    Object[] values = {1, 2L, 3.0, 4f, true, false, "s", null, "ü€"};
    byte[] bytes = PlainResults.encode(values, ArgumentSharer.Replacer.NONE, 1 << 20);
    assertThat(PlainResults.isPlain(bytes)).isTrue();
    assertThat(PlainResults.decode(bytes)).containsExactly(values);

    assertThat(PlainResults.encode(new Object[] {1, new int[1]}, ArgumentSharer.Replacer.NONE, 1 << 20)).isNull();
    assertThat(PlainResults.encode(new Object[] {'c'}, ArgumentSharer.Replacer.NONE, 1 << 20)).isNull();
    assertThat(PlainResults.encode(new Object[] {"s".repeat(100)}, ArgumentSharer.Replacer.NONE, 200))
        .as("might pass the limit: Java serialization writes them and says they are too large").isNull();
    assertThat(PlainResults.encode(new Object[] {"s"}, v -> v instanceof String ? "shared" : v, 1 << 20))
        .as("a value the replacer would replace").isNull();

    for (int n = 0; n < bytes.length; n++) {
      byte[] cut = Arrays.copyOf(bytes, n);
      assertThatThrownBy(() -> PlainResults.decode(cut)).as("cut to %d bytes", n).isInstanceOf(IOException.class);
    }
    byte[] lying = bytes.clone();
    lying[3] = 0x7f;
    assertThatThrownBy(() -> PlainResults.decode(lying)).isInstanceOf(StreamCorruptedException.class);
    byte[] badTag = bytes.clone();
    badTag[7] = 0; // the tag of a Java-serialized object: never in plain results
    assertThatThrownBy(() -> PlainResults.decode(badTag)).isInstanceOf(StreamCorruptedException.class)
        .hasMessageContaining("tag");
  }
}
