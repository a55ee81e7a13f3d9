package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.kryo5.DefaultSerializer;
import com.esotericsoftware.kryo.kryo5.Kryo;
import com.esotericsoftware.kryo.kryo5.Serializer;
import com.esotericsoftware.kryo.kryo5.io.Input;
import com.esotericsoftware.kryo.kryo5.io.Output;
import io.joblib4j.CorruptFileException;
import io.joblib4j.LoadOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An exception thrown while a Kryo or Java-serialized payload is read is a corrupt file only when
 * the JDK or Kryo threw it reading the bytes; one thrown by other code (a serializer, a
 * {@code readObject}, joblib4j's own readers) is a bug and surfaces as itself (issue 19, the
 * masking one level below {@code Persistence.read}).
 */
class DecoderBugsSurfaceTest {
  /** Stands for a bug in a Kryo serializer: reading always throws. */
  public static final class ThrowingSerializer extends Serializer<KryoBuggy> {
    @Override
    public void write(Kryo kryo, Output output, KryoBuggy value) {
      output.writeInt(value.n);
    }

    @Override
    public KryoBuggy read(Kryo kryo, Input input, Class<? extends KryoBuggy> type) {
      throw new IllegalStateException("a bug in a serializer");
    }
  }

  /** Not Serializable, so dumped through Kryo, with the serializer above. */
  @DefaultSerializer(ThrowingSerializer.class)
  static final class KryoBuggy {
    final int n;

    KryoBuggy(int n) {
      this.n = n;
    }
  }

  /** Holds the above in a field: Kryo's field serializer wraps what the inner one throws. */
  static final class KryoHolder {
    final KryoBuggy inner = new KryoBuggy(1);
  }

  /** Stands for a bug in a readObject. */
  static final class JavaBuggy implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      throw new IllegalStateException("a bug in readObject");
    }
  }

  /** A Serializable the codec does not know, holding a value the JDK reads with its own code. */
  static final class Dated implements Serializable {
    private static final long serialVersionUID = 1L;
    final LocalDate date;

    Dated(LocalDate date) {
      this.date = date;
    }
  }

  /** A Serializable the codec does not know, holding one of the JDK's immutable maps. */
  static final class MapHolder implements Serializable {
    private static final long serialVersionUID = 1L;
    final Map<String, String> map;

    MapHolder(Map<String, String> map) {
      this.map = map;
    }
  }

  private static final LoadOptions ALLOW = LoadOptions.builder()
      .allow(KryoBuggy.class, KryoHolder.class, JavaBuggy.class, Dated.class, MapHolder.class).build();

  private static byte[] dump(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Persistence.dump(value, out, null, 0);
    return out.toByteArray();
  }

  private static Object load(byte[] file) {
    return Persistence.load(new ByteArrayInputStream(file), ALLOW);
  }

  @Test
  void anExceptionOfAKryoSerializerSurfacesAsItselfNotAsACorruptFile() {
    assertThatThrownBy(() -> load(dump(new KryoBuggy(1))))
        .isExactlyInstanceOf(IllegalStateException.class).hasMessage("a bug in a serializer");
  }

  @Test
  void anExceptionOfAKryoSerializerSurfacesEvenWhenKryoWrapsItForAField() {
    assertThatThrownBy(() -> load(dump(new KryoHolder())))
        .isExactlyInstanceOf(IllegalStateException.class).hasMessage("a bug in a serializer");
  }

  @Test
  void anExceptionOfAReadObjectSurfacesAsItselfNotAsACorruptFile() {
    assertThatThrownBy(() -> load(dump(new JavaBuggy())))
        .isExactlyInstanceOf(IllegalStateException.class).hasMessage("a bug in readObject");
  }

  @Test
  void anUncheckedExceptionTheJdkThrowsForAMalformedSerialFormIsACorruptFile() {
    byte[] file = dump(new Dated(LocalDate.of(2020, 1, 31)));
    // java.time's serial form of a LocalDate: type 3, the year as an int, month and day as bytes
    byte[] date = {3, 0, 0, 0x07, (byte) 0xE4, 1, 31};
    int at = indexOf(file, date);
    file[at + 6] = 32; // January 32nd: LocalDate.of throws DateTimeException inside the JDK's reading
    assertThatThrownBy(() -> load(Checksums.fix(file))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("malformed Java-serialized object").hasRootCauseInstanceOf(java.time.DateTimeException.class);
  }

  @Test
  void anUncheckedExceptionKryoThrowsForABackReferenceNeverReadIsACorruptFile() throws IOException {
    byte[] file = DeclaredLengthsTest.kryoContainer(o -> {
      o.writeVarInt(1, true); // a class written by name
      o.writeVarInt(0, true);
      o.writeString("java.util.ArrayList");
      o.writeVarInt(100, true); // a reference to the 98th object read, of none
    });
    assertThatThrownBy(() -> Persistence.load(new ByteArrayInputStream(file), LoadOptions.defaults()))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("malformed Kryo object")
        .hasRootCauseInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void anInternalErrorOfTheJdksImmutableCollectionsForAMalformedSerialFormIsACorruptFile() {
    byte[] file = dump(new MapHolder(Map.of("k", "v")));
    // CollSer writes a Map.of as its array's length (a 4-byte block of data), then k1, v1, ...
    byte[] length = {0x77, 4, 0, 0, 0, 2};
    int at = indexOf(file, length);
    file[at + 5] = 1; // an odd length: the JDK's MapN throws InternalError("length is odd")
    assertThatThrownBy(() -> load(Checksums.fix(file))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("malformed Java-serialized object").hasRootCauseInstanceOf(InternalError.class);
  }

  private static int indexOf(byte[] b, byte[] part) {
    for (int i = 0; i + part.length <= b.length; i++) {
      if (java.util.Arrays.equals(b, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    throw new AssertionError("not found in the dump");
  }
}
