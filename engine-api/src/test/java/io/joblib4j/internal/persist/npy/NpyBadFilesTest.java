package io.joblib4j.internal.persist.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Compress;
import io.joblib4j.CorruptFileException;
import io.joblib4j.Joblib;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad {@code .npy} and {@code .npz} files, made by hand: each a clear error naming the file, nothing allocated for a lie. */
class NpyBadFilesTest {
  @TempDir Path dir;

  /** A .npy of format {@code major}.0 with {@code dict} as its header and {@code data} after it. */
  static byte[] npy(int major, String dict, byte[] data) {
    byte[] text = (dict + "\n").getBytes(StandardCharsets.UTF_8);
    int lengthBytes = major == 1 ? 2 : 4;
    ByteBuffer b = ByteBuffer.allocate(8 + lengthBytes + text.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put(NpyHeader.MAGIC).put((byte) major).put((byte) 0);
    if (major == 1) {
      b.putShort((short) text.length);
    } else {
      b.putInt(text.length);
    }
    return b.put(text).put(data).array();
  }

  static String dict(String descr, String fortran, String shape) {
    return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
  }

  private Path file(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  private void assertCorrupt(byte[] bytes, String... message) throws IOException {
    Path f = file("bad.npy", bytes);
    for (MmapMode mode : new MmapMode[] {null, MmapMode.READ_ONLY}) {
      var t = assertThatThrownBy(() -> {
        if (mode == null) {
          Joblib.load(f);
        } else {
          Joblib.load(f, mode);
        }
      }).isInstanceOf(CorruptFileException.class).hasMessageStartingWith(f.toString() + ": ");
      for (String m : message) {
        t.hasMessageContaining(m);
      }
    }
    var s = assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(bytes)))
        .isInstanceOf(CorruptFileException.class);
    for (String m : message) {
      if (!m.contains("follow")) { // a stream's length is unknown until it ends
        s.hasMessageContaining(m);
      }
    }
  }

  @Test
  void aTruncatedHeaderIsACorruptFile() throws IOException {
    byte[] good = npy(1, dict("'<f8'", "False", "(2,)"), new byte[16]);
    assertCorrupt(Arrays.copyOf(good, 7), "truncated numpy file", "magic and version");
    assertCorrupt(Arrays.copyOf(good, 9), "truncated numpy file", "header's length");
    Path f = file("cut.npy", Arrays.copyOf(good, 30));
    assertThatThrownBy(() -> Joblib.load(f)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("the header claims").hasMessageContaining("bytes but only 20 follow");
  }

  @Test
  void aShapeLargerThanTheFileIsACorruptFileWithNothingAllocated() throws IOException {
    // a trillion doubles declared in a file of a few bytes: refused against the file's size
    assertCorrupt(npy(1, dict("'<f8'", "False", "(1000000, 1000000)"), new byte[16]),
        "truncated numpy file: the shape [1000000, 1000000] of float64 needs 8000000000000 bytes of data but only 16"
            + " follow the header");
    // and a stream, whose length is unknown, costs what it holds: a short read, not an allocation
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(npy(1, dict("'<f8'", "False", "(3000000,)"),
        new byte[16])), LoadOptions.builder().maxHeapBytes(1L << 30).build()))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("truncated numpy data");
    assertCorrupt(npy(1, dict("'<i8'", "False", "(4611686018427387904, 4)"), new byte[0]),
        "has more bytes than a file can hold");
  }

  @Test
  void anArrayOverTheHeapLimitIsRefusedWithHowToMapItOrRaiseTheLimit() throws IOException {
    Path f = file("big.npy", npy(1, dict("'<f8'", "False", "(1024,)"), new byte[8192]));
    assertThatThrownBy(() -> Joblib.load(f, LoadOptions.builder().maxHeapBytes(4096).build()))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("maxHeapBytes")
        .hasMessageContaining("MmapMode.READ_ONLY");
    try (NDArray mapped = Joblib.load(f, LoadOptions.builder().maxHeapBytes(4096).mmapMode(MmapMode.READ_ONLY).build())) {
      assertThat(mapped.size()).isEqualTo(1024);
    }
  }

  @Test
  void anUnknownFormatVersionIsNamed() throws IOException {
    byte[] v4 = npy(2, dict("'<f8'", "False", "(2,)"), new byte[16]);
    v4[6] = 4;
    assertCorrupt(v4, "numpy format version 4.0 is not one joblib4j reads (1.0, 2.0 and 3.0");
    byte[] v11 = npy(1, dict("'<f8'", "False", "(2,)"), new byte[16]);
    v11[7] = 1;
    assertCorrupt(v11, "numpy format version 1.1");
  }

  @Test
  void aBadHeaderDictIsNamedAndNeverEvaluated() throws IOException {
    byte[] data = new byte[16];
    assertCorrupt(npy(1, "{'descr': __import__('os').system('touch pwned'), 'fortran_order': False, 'shape': (2,)}",
        data), "bad numpy header", "the name '__import__' (only literals are read, never evaluated)");
    assertThat(dir.resolve("pwned")).doesNotExist();
    assertCorrupt(npy(1, "{'descr': '<f8', 'shape': (2,)}", data), "its keys are", "not exactly 'descr'");
    assertCorrupt(npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}", data), "its keys are");
    assertCorrupt(npy(1, "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}", data),
        "the key 'descr' appears twice");
    assertCorrupt(npy(1, dict("'<f8'", "0", "(2,)"), data), "'fortran_order' is 0, not True or False");
    assertCorrupt(npy(1, dict("'<f8'", "False", "(2.0,)"), data), "bad numpy header", "not an integer");
    assertCorrupt(npy(1, dict("'<f8'", "False", "(-2,)"), data), "not a length");
    assertCorrupt(npy(1, dict("'<f8'", "False", "[2]"), data), "'shape' is [2], not a tuple");
    assertCorrupt(npy(1, dict("'<f8'", "False", "(2)"), data), "a one-item tuple needs a trailing comma");
    assertCorrupt(npy(1, dict("'<f8", "False", "(2,)"), data), "bad numpy header");
    assertCorrupt(npy(1, "['descr', '<f8']", data), "expected a dict");
    assertCorrupt(npy(1, dict("'<f8'", "False", "(2,)") + " junk", data), "unexpected text after the dict");
    assertCorrupt(npy(1, dict("7", "False", "(2,)"), data), "'descr' is 7, not a dtype string");
    assertCorrupt(npy(1, dict("'<f8'", "False", "(" + "1, ".repeat(33) + ")"), data),
        "33 dimensions; NDArray has at most 32");
    assertCorrupt(npy(1, dict("'<f8'", "False", "((((((((((((((((((2,),),),),),),),),),),),),),),),),),),)"), data),
        "nested deeper than 16 levels");
  }

  @Test
  void aHeaderLengthOverTheBoundIsRefusedBeforeItIsRead() throws IOException {
    ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    b.put(NpyHeader.MAGIC).put((byte) 2).put((byte) 0).putInt(Integer.MAX_VALUE);
    assertCorrupt(b.array(), "the numpy header claims 2147483647 bytes, more than the 1048576 joblib4j reads");
  }

  @Test
  void bytesAfterTheArrayAreRefusedFromAFileAndLeftInAStreamForTheNextArray() throws IOException {
    ByteArrayOutputStream two = new ByteArrayOutputStream();
    for (double v : new double[] {1.5, 2.5}) {
      Path one = dir.resolve("one.npy");
      Joblib.dump(NDArray.of(v, v), one);
      two.writeBytes(Files.readAllBytes(one));
    }
    Path f = file("two.npy", two.toByteArray());
    assertThatThrownBy(() -> Joblib.load(f)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("144 bytes follow the array's data").hasMessageContaining("Joblib.load(in) per array");
    ByteArrayInputStream in = new ByteArrayInputStream(two.toByteArray());
    assertThat(Joblib.<NDArray>load(in)).isEqualTo(NDArray.of(1.5, 1.5));
    assertThat(Joblib.<NDArray>load(in)).isEqualTo(NDArray.of(2.5, 2.5));
    assertThat(in.available()).isZero();
  }

  @Test
  void aNpyDumpTakesOneUncompressedNDArray() {
    assertThatThrownBy(() -> Joblib.dump(new double[] {1}, dir.resolve("x.npy")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a .npy file holds one NDArray");
    assertThatThrownBy(() -> Joblib.dump(NDArray.of(1.0), dir.resolve("x.npy"), Compress.of(3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never compressed");
    assertThat(dir.resolve("x.npy")).doesNotExist();
  }

  @Test
  void aNpyWrittenByJoblib4jHasNumpysAlignedHeader() throws IOException {
    Path f = dir.resolve("h.npy");
    Joblib.dump(NDArray.zeros(DType.INT16, 2, 3), f);
    byte[] b = Files.readAllBytes(f);
    assertThat(b).hasSize(128 + 12);
    String header = new String(b, 10, 118, StandardCharsets.ISO_8859_1);
    assertThat(header).startsWith("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }").endsWith(" \n");
  }

  /** A zip with one entry {@code name} holding {@code content}. */
  private Path zip(String name, byte[] content, byte[] extra) throws IOException {
    Path f = dir.resolve("bad.npz");
    try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(f))) {
      // stored, as np.savez stores, so that a test can find and damage the entry's bytes
      byte[] all = Arrays.copyOf(content, content.length + extra.length);
      System.arraycopy(extra, 0, all, content.length, extra.length);
      ZipEntry e = new ZipEntry(name);
      java.util.zip.CRC32 crc = new java.util.zip.CRC32();
      crc.update(all);
      e.setMethod(ZipEntry.STORED);
      e.setSize(all.length);
      e.setCompressedSize(all.length);
      e.setCrc(crc.getValue());
      z.putNextEntry(e);
      z.write(all);
      z.closeEntry();
    }
    return f;
  }

  @Test
  void badNpzArchivesAreCorruptFilesNamingTheEntry() throws IOException {
    byte[] good = npy(1, dict("'<f8'", "False", "(2,)"), new byte[16]);
    Path notNpy = zip("a.txt", "hello, not a numpy array".getBytes(StandardCharsets.UTF_8), new byte[0]);
    assertThatThrownBy(() -> Joblib.load(notNpy)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("entry a.txt").hasMessageContaining("bad magic");
    Path trailing = zip("a.npy", good, new byte[] {1});
    assertThatThrownBy(() -> Joblib.load(trailing)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("the entry a.npy holds bytes after its array's data");
    Path bomb = zip("a.npy", npy(1, dict("'<f8'", "False", "(100000000,)"), new byte[0]), new byte[800_000_000 / 1000]);
    assertThatThrownBy(() -> Joblib.load(bomb)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("a.npy").hasMessageContaining("800000000 bytes of data but only 800000 follow");
    Path overLimit = zip("a.npy", good, new byte[0]);
    assertThatThrownBy(() -> Joblib.load(overLimit, LoadOptions.builder().maxHeapBytes(8).build()))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("maxHeapBytes");
    byte[] damaged = Files.readAllBytes(zip("a.npy", good, new byte[0]));
    int at = indexOf(damaged, good) + good.length - 1;
    damaged[at] ^= 1;
    Path flipped = Files.write(dir.resolve("flipped.npz"), damaged);
    assertThatThrownBy(() -> Joblib.load(flipped)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("the entry a.npy is damaged: its CRC-32");
    Path cut = Files.write(dir.resolve("cut.npz"), Arrays.copyOf(damaged, damaged.length - 30));
    assertThatThrownBy(() -> Joblib.load(cut)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("not a valid zip archive");
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(damaged))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("joblib4j reads a .npz from a file only");
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    for (int i = 0; i + needle.length <= hay.length; i++) {
      if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
