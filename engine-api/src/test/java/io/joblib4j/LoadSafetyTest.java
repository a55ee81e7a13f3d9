package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.internal.persist.OldFormatFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Safe by default: refused classes never get an instance; bombs and lies fail with bounded memory. */
class LoadSafetyTest {
  @TempDir Path dir;

  /** Counts every instance made, by constructor or by deserialization. */
  static final AtomicInteger CREATED = new AtomicInteger();

  /** A plain class Kryo would handle (not Serializable, no no-arg constructor run by Objenesis). */
  static final class Gadget {
    final String command;

    Gadget(String command) {
      this.command = command;
      CREATED.incrementAndGet();
    }
  }

  /** A Serializable class whose readObject would run on load. */
  static final class SerialGadget implements Serializable {
    private static final long serialVersionUID = 1L;
    final String command;

    SerialGadget(String command) {
      this.command = command;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      CREATED.incrementAndGet();
    }
  }

  @BeforeEach
  void reset() {
    CREATED.set(0);
  }

  @Test
  void aPlainClassIsRefusedBeforeAnyInstanceExistsAndTheMessageSaysHowToAllowIt() {
    Path file = dir.resolve("g.jl4j");
    Joblib.dump(Map.of("x", new Gadget("rm -rf /")), file);
    CREATED.set(0);
    assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(UnsafeClassException.class)
        .hasMessageContaining(Gadget.class.getName()).hasMessageContaining(file.toString())
        .hasMessageContaining("LoadOptions.builder().allow(").hasMessageContaining("LoadOptions.trusted()")
        .satisfies(e -> assertThat(((UnsafeClassException) e).className()).isEqualTo(Gadget.class.getName()));
    assertThat(CREATED).hasValue(0);
  }

  @Test
  void aSerializableClassIsRefusedBeforeItsReadObjectRuns() {
    Path file = dir.resolve("s.jl4j");
    Joblib.dump(List.of(new SerialGadget("calc")), file);
    assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(UnsafeClassException.class)
        .hasMessageContaining(SerialGadget.class.getName());
    assertThat(CREATED).hasValue(0);
  }

  @Test
  void allowingTheClassOrItsPackageOrTrustingTheFileLoadsIt() {
    Path file = dir.resolve("ok.jl4j");
    Joblib.dump(List.of(new Gadget("a"), new SerialGadget("b")), file);
    List<Object> byClass = Joblib.load(file, LoadOptions.builder().allow(Gadget.class, SerialGadget.class).build());
    assertThat(((Gadget) byClass.get(0)).command).isEqualTo("a");
    assertThat(((SerialGadget) byClass.get(1)).command).isEqualTo("b");
    List<Object> byPackage = Joblib.load(file, LoadOptions.builder().allowPackages("io.joblib4j").build());
    assertThat(byPackage).hasSize(2);
    List<Object> trusted = Joblib.load(file, LoadOptions.trusted());
    assertThat(trusted).hasSize(2);
  }

  @Test
  void anArrayOfARefusedClassIsRefusedToo() {
    Path file = dir.resolve("arr.jl4j");
    Joblib.dump(new Object[] {new SerialGadget[] {new SerialGadget("x")}}, file);
    // the advice names the element class, which is what allowing takes (not "[Lcom...;")
    assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(UnsafeClassException.class)
        .hasMessageContaining("SerialGadget").hasMessageContaining("allow(LoadSafetyTest.SerialGadget.class)")
        .hasMessageContaining("allowPackages(\"io.joblib4j\")");
    assertThat(CREATED).hasValue(0);
  }

  @Test
  void aRefusedClassNestedInsideAnAllowedSerializableObjectIsRefused() {
    // the outer object is allowed; the one inside its Java-serialized graph is not
    Path file = dir.resolve("nested.jl4j");
    java.util.concurrent.CopyOnWriteArrayList<Object> outer = new java.util.concurrent.CopyOnWriteArrayList<>();
    outer.add(new SerialGadget("inner"));
    Joblib.dump(outer, file);
    assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(UnsafeClassException.class);
    assertThat(CREATED).hasValue(0);
  }

  @Test
  void aOneGigabyteZerosBombFailsAtTheLimitWithBoundedMemory() throws Exception {
    // a valid container holding 1 GiB of zeros, gzipped to about 1 MB
    Path file = dir.resolve("bomb.jl4j.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16)) {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      Joblib.dump(new byte[0], head);
      byte[] container = fakeBlobContainer(1L << 30);
      out.write(container);
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 1024; i++) {
        out.write(zeros);
      }
    }
    assertThat(Files.size(file)).isLessThan(4 << 20);
    long before = usedHeap();
    assertThatThrownBy(() -> Joblib.load(file, LoadOptions.builder().maxDecompressedBytes(64 << 20).build()))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("limit").hasMessageContaining(file.toString());
    assertThat(usedHeap() - before).isLessThan(256L << 20);
  }

  @Test
  void aLyingLengthHeaderInAStreamFailsWithoutAllocatingWhatItClaims() {
    // claims a 1.5 GiB array, holds nothing: must fail as truncated, not try to allocate 1.5 GiB
    byte[] container = fakeBlobContainer(3L << 29);
    long before = usedHeap();
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(container)))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("stream").hasMessageContaining("truncated");
    assertThat(usedHeap() - before).isLessThan(256L << 20);
  }

  @Test
  void aLyingLengthHeaderInAFileIsCaughtAgainstTheFileSize() throws Exception {
    Path file = dir.resolve("lie.jl4j");
    Files.write(file, fakeBlobContainer(1L << 40));
    assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("declares").hasMessageContaining("truncated");
  }

  @Test
  void deepNestingIsRefusedNotAStackOverflow() {
    Object v = "leaf";
    for (int i = 0; i < 200; i++) {
      v = List.of(v);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(v, out);
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(out.toByteArray()),
        LoadOptions.builder().maxDepth(50).build()))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("nest deeper than 50");
  }

  @Test
  void aCycleCannotBeDumpedAndSaysWhy() {
    List<Object> self = new java.util.ArrayList<>();
    self.add(self);
    assertThatThrownBy(() -> Joblib.dump(self, new ByteArrayOutputStream()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
  }

  @Test
  void aPythonPickleIsRecognisedAndNamed() throws Exception {
    Path file = dir.resolve("model.pkl");
    Files.write(file, new byte[] {(byte) 0x80, 4, (byte) 0x95, 0, 0, 0});
    assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("Python pickle");
  }

  @Test
  void anEmptyOrForeignFileIsCorruptNotSomethingElse() throws Exception {
    Path empty = Files.write(dir.resolve("empty"), new byte[0]);
    assertThatThrownBy(() -> Joblib.load(empty)).isInstanceOf(CorruptFileException.class).hasMessageContaining("empty");
    Path text = Files.writeString(dir.resolve("text"), "hello, world");
    assertThatThrownBy(() -> Joblib.load(text)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("bad magic");
  }

  @Test
  void aNewerFormatVersionSaysToUpgrade() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(1, out);
    byte[] b = out.toByteArray();
    b[8] = (byte) (OldFormatFiles.currentVersion() + 1); // major version
    fixHeaderCrc(b, 0);
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(b)))
        .isInstanceOf(UnsupportedFormatVersionException.class).hasMessageContaining("upgrade")
        .hasMessageContaining("version " + b[8] + ",")
        .satisfies(e -> assertThat(((UnsupportedFormatVersionException) e).version()).isEqualTo(b[8]));
  }

  @Test
  void aMissingFileSaysPlainlyThatItDoesNotExistNamingThePathOnce() {
    Path missing = dir.resolve("nope.jl4j");
    assertThatThrownBy(() -> Joblib.load(missing)).isInstanceOf(java.io.UncheckedIOException.class)
        .hasCauseInstanceOf(java.nio.file.NoSuchFileException.class)
        .hasMessage("cannot load " + missing + ": the file does not exist; check the path and that the file"
            + " was written");
    Path relative = Path.of("no-such-folder", "model.jl4j");
    assertThatThrownBy(() -> Joblib.load(relative, MmapMode.READ_ONLY))
        .hasMessage("cannot load " + relative + ": the file does not exist (relative to the working directory "
            + Path.of("").toAbsolutePath() + "); check the path and that the file was written");
  }

  // ------------------------------------------------------------ helpers

  static long usedHeap() {
    System.gc();
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  /** A container header and one BLOB record header (double elements) claiming {@code length} bytes. */
  static byte[] fakeBlobContainer(long length) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(0, out);
    byte[] valid = out.toByteArray();
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64 + 32).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.put(valid, 0, 32);
    b.put((byte) 1).put((byte) 6).putShort((short) 0).putInt(0).putLong(length).putLong(0).putInt(0).putInt(0);
    byte[] a = java.util.Arrays.copyOf(b.array(), 64);
    fixHeaderCrc(a, 32);
    return a;
  }

  static void fixHeaderCrc(byte[] b, int at) {
    java.util.zip.CRC32C c = new java.util.zip.CRC32C();
    c.update(b, at, 28);
    java.nio.ByteBuffer.wrap(b, at + 28, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) c.getValue());
  }
}
