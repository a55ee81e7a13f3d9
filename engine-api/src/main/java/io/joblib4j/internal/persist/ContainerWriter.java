package io.joblib4j.internal.persist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Writes the container's framing: the file header, then records (each a checksummed header, zero
 * padding that aligns blob payloads, the payload, and its CRC32C), then the END record. What goes in
 * the records is {@link ValueEncoder}'s business.
 */
final class ContainerWriter {
  private static final int STAGE = 1 << 20;

  private final Sink sink;
  private final ByteBuffer header = ByteBuffer.allocate(Format.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
  private final ByteBuffer trailer = ByteBuffer.allocate(Format.TRAILER).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();
  private ByteBuffer stage;
  private long sequence;
  private long blobs;
  private long objectBytes;
  private final int major;
  /** The block sums of the NDArray blob being written, or null. */
  private BlockSummer sums;

  ContainerWriter(Sink sink) throws IOException {
    this(sink, Format.MAJOR);
  }

  /** A writer of format version {@code major}: 1 only to make old-format files for tests. */
  ContainerWriter(Sink sink, int major) throws IOException {
    this.sink = sink;
    this.major = major;
    ByteBuffer h = ByteBuffer.allocate(Format.FILE_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    h.put(Format.MAGIC).putShort((short) major).putShort((short) Format.MINOR)
        .putInt(Format.ALIGNMENT).putInt(0).putInt(0).putInt(0);
    h.putInt(crcOf(h.array(), 28));
    h.flip();
    sink.write(h);
  }

  static int crcOf(byte[] b, int len) {
    CRC32C c = new CRC32C();
    c.update(b, 0, len);
    return (int) c.getValue();
  }

  /** A little-endian staging buffer for callers converting arrays to bytes. */
  ByteBuffer stage() {
    if (stage == null) {
      stage = sink.newScratch(STAGE).order(ByteOrder.LITTLE_ENDIAN);
    }
    stage.clear();
    return stage;
  }

  /** Starts a blob record of {@code length} bytes; the caller then calls {@link #payload} and {@link #end}. */
  long beginBlob(int subtype, long length) throws IOException {
    writeHeader(Format.KIND_BLOB, subtype, length, true);
    return blobs++;
  }

  /**
   * Starts the blob record of NDArray data of {@code length} bytes; the caller then calls {@link
   * #payload} and {@link #endArrayBlob}.
   */
  long beginArrayBlob(long length) throws IOException {
    long id = beginBlob(Format.BLOB_NDARRAY, length);
    if (major >= 2) {
      sums = new BlockSummer(Format.BLOCK_SHIFT, length);
    }
    return id;
  }

  /** Ends NDArray data with its payload checksum, then (version 2) writes its block sums. */
  void endArrayBlob() throws IOException {
    end();
    if (sums != null) {
      ByteBuffer p = sums.finish();
      sums = null;
      writeHeader(Format.KIND_SUMS, 0, p.remaining(), false);
      payload(p);
      end();
    }
  }

  /** Writes payload bytes of the current record (all of {@code b}'s remaining bytes). */
  void payload(ByteBuffer b) throws IOException {
    crc.update(b.duplicate());
    if (sums != null) {
      sums.update(b.duplicate());
    }
    sink.write(b);
  }

  /** Ends the current record with its payload checksum. */
  void end() throws IOException {
    end((int) crc.getValue());
  }

  /** Writes payload bytes whose checksum the caller computes (see {@link ChecksumPipeline}). */
  void payloadChecksummedElsewhere(ByteBuffer b) throws IOException {
    sink.write(b);
  }

  /** Ends the current record with a checksum the caller computed. */
  void end(int payloadCrc) throws IOException {
    trailer.clear();
    trailer.putInt(payloadCrc).flip();
    sink.write(trailer);
  }

  /** A pipeline whose staging buffers suit this sink. */
  ChecksumPipeline pipeline() {
    return new ChecksumPipeline(sink::newScratch, STAGE);
  }

  void objects(byte[] b, int len) throws IOException {
    writeHeader(Format.KIND_OBJECTS, 0, len, false);
    payload(ByteBuffer.wrap(b, 0, len));
    end();
    objectBytes += len;
  }

  void finish() throws IOException {
    writeHeader(Format.KIND_END, 0, Format.END_PAYLOAD, false);
    ByteBuffer p = ByteBuffer.allocate(Format.END_PAYLOAD).order(ByteOrder.LITTLE_ENDIAN);
    p.putLong(blobs).putLong(objectBytes).flip();
    payload(p);
    end();
  }

  private void writeHeader(int kind, int subtype, long length, boolean align) throws IOException {
    int pad = 0;
    if (align) {
      long payloadAt = sink.position() + Format.RECORD_HEADER;
      pad = (int) ((Format.ALIGNMENT - payloadAt % Format.ALIGNMENT) % Format.ALIGNMENT);
    }
    header.clear();
    header.put((byte) kind).put((byte) subtype).putShort((short) 0).putInt(pad).putLong(length)
        .putLong(sequence++).putInt(0);
    header.putInt(crcOf(header.array(), 28));
    header.flip();
    sink.write(header);
    if (pad > 0) {
      sink.write(ByteBuffer.allocate(pad));
    }
    crc.reset();
  }
}
