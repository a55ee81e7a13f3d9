package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Compress;
import io.joblib4j.CorruptFileException;
import io.joblib4j.Joblib;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A compressed file is read to the end of its compressed stream, so its trailer (gzip's CRC32 and
 * size, lz4's content checksum, xz's index and footer...) is checked, and nothing may follow it;
 * an uncompressed file may not carry bytes after its END record either.
 */
class StreamEndsTest {
  @TempDir Path dir;

  static final Object VALUE = List.of("value", new int[] {1, 2, 3}, "x".repeat(300));

  static Stream<String> codecs() {
    return Stream.of("zlib", "gzip", "bz2", "lzma", "xz", "lz4", "zstd");
  }

  private byte[] dumped(String codec) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(VALUE, out, codec == null ? Compress.none() : Compress.of(codec, 3));
    return out.toByteArray();
  }

  private Path write(String name, byte[] content) throws Exception {
    Path f = dir.resolve(name);
    Files.write(f, content);
    return f;
  }

  private static void assertLoadsTheValue(Object back) {
    List<?> l = (List<?>) back;
    assertThat(l.get(0)).isEqualTo("value");
    assertThat((int[]) l.get(1)).containsExactly(1, 2, 3);
  }

  private static void assertCorrupt(Path file) {
    assertThatThrownBy(() -> Joblib.load(file)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(file.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codecs")
  void aFileCutByItsLastByteIsCorrupt(String codec) throws Exception {
    byte[] b = dumped(codec);
    assertLoadsTheValue(Joblib.load(write("whole", b)));
    assertCorrupt(write("cut", Arrays.copyOf(b, b.length - 1)));
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(Arrays.copyOf(b, b.length - 1))))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("stream");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codecs")
  void aFileCutAnywhereIsCorrupt(String codec) throws Exception {
    byte[] b = dumped(codec);
    for (int keep = 1; keep < b.length; keep++) {
      Path f = write("cut" + keep, Arrays.copyOf(b, keep));
      assertCorrupt(f);
      Files.delete(f);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codecs")
  void trailingGarbageIsCorrupt(String codec) throws Exception {
    byte[] b = dumped(codec);
    for (byte[] garbage : new byte[][] {{0x42}, {1, 2}, {1, 2, 3}, {1, 2, 3, 4}, "trailing garbage!".getBytes(),
        Arrays.copyOf(b, 12)}) { // the last one looks like the start of another stream of the codec
      byte[] withGarbage = Arrays.copyOf(b, b.length + garbage.length);
      System.arraycopy(garbage, 0, withGarbage, b.length, garbage.length);
      assertCorrupt(write("garbage" + garbage.length, withGarbage));
      assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(withGarbage)))
          .as("%s + %d bytes from a stream", codec, garbage.length)
          .isInstanceOf(CorruptFileException.class).hasMessageContaining("stream");
    }
  }

  @Test
  void anUncompressedFileWithBytesAfterItsEndRecordIsCorrupt() throws Exception {
    byte[] b = dumped(null);
    byte[] withGarbage = Arrays.copyOf(b, b.length + 3);
    assertThatThrownBy(() -> Joblib.load(write("raw", withGarbage))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("3 unexpected bytes after the end record");
    // a stream, though, may go on with other data: exactly one dump is read from it
    ByteArrayInputStream in = new ByteArrayInputStream(withGarbage);
    assertLoadsTheValue(Joblib.load(in));
    assertThat(in.available()).isEqualTo(3);
  }

  @Test
  void aDecompressedStreamThatGoesOnAfterTheEndRecordIsCorrupt() throws Exception {
    byte[] raw = dumped(null);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (var out = new java.util.zip.GZIPOutputStream(gz)) {
      out.write(raw);
      out.write(new byte[] {7, 7});
    }
    assertThatThrownBy(() -> Joblib.load(write("extra.gz", gz.toByteArray())))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("2 unexpected bytes after the end record");
  }

  /** A gzip member of {@code content} whose header carries every optional field RFC 1952 has. */
  private static byte[] gzipWithAllHeaderFields(byte[] content, boolean goodHeaderCrc) throws Exception {
    ByteArrayOutputStream h = new ByteArrayOutputStream();
    h.write(new byte[] {0x1f, (byte) 0x8b, 8, 4 | 8 | 16 | 2, 0, 0, 0, 0, 0, 3}); // FEXTRA FNAME FCOMMENT FHCRC
    h.write(new byte[] {3, 0, 'a', 'b', 'c'});
    h.write("name.jl4j\0".getBytes());
    h.write("a comment\0".getBytes());
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(h.toByteArray());
    int crc16 = (int) crc.getValue() & 0xFFFF ^ (goodHeaderCrc ? 0 : 1);
    h.write(new byte[] {(byte) crc16, (byte) (crc16 >>> 8)});
    java.util.zip.Deflater d = new java.util.zip.Deflater(6, true);
    try (var out = new java.util.zip.DeflaterOutputStream(h, d)) {
      out.write(content);
    }
    crc.reset();
    crc.update(content);
    byte[] body = h.toByteArray();
    java.nio.ByteBuffer t = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    t.putInt((int) crc.getValue()).putInt(content.length);
    byte[] all = Arrays.copyOf(body, body.length + 8);
    System.arraycopy(t.array(), 0, all, body.length, 8);
    return all;
  }

  @Test
  void gzipHeadersWithNameCommentExtraAndHeaderCrcAreRead() throws Exception {
    byte[] raw = dumped(null);
    assertLoadsTheValue(Joblib.load(write("fields.gz", gzipWithAllHeaderFields(raw, true))));
    assertThatThrownBy(() -> Joblib.load(write("badcrc.gz", gzipWithAllHeaderFields(raw, false))))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("CRC16");
  }

  @Test
  void aDamagedGzipTrailerIsCorrupt() throws Exception {
    byte[] b = dumped("gzip");
    for (int at : new int[] {b.length - 8, b.length - 1}) { // the CRC32, the size
      byte[] damaged = b.clone();
      damaged[at] ^= 1;
      assertThatThrownBy(() -> Joblib.load(write("trailer" + at, damaged))).isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("mismatch in the gzip trailer");
    }
  }

  @Test
  void concatenatedGzipMembersAreOneValidStream() throws Exception {
    // gzip(1) allows members to follow each other; an empty second member adds nothing
    byte[] b = dumped("gzip");
    ByteArrayOutputStream empty = new ByteArrayOutputStream();
    new java.util.zip.GZIPOutputStream(empty).close();
    byte[] two = Arrays.copyOf(b, b.length + empty.size());
    System.arraycopy(empty.toByteArray(), 0, two, b.length, empty.size());
    assertLoadsTheValue(Joblib.load(write("two.gz", two)));
  }
}
