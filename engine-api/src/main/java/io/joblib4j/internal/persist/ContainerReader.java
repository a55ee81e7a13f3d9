package io.joblib4j.internal.persist;

import io.joblib4j.CorruptFileException;
import io.joblib4j.MmapMode;
import io.joblib4j.UnsupportedFormatVersionException;
import io.joblib4j.internal.array.BlockChecks;
import io.joblib4j.internal.array.ByteStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads the container's framing, checking every header checksum, sequence number and length before
 * acting on it and every payload checksum before its bytes are used. BLOB records are materialised
 * as they pass (as Java arrays, heap storage, or mappings of the file); OBJECTS payloads are handed
 * to {@link ValueDecoder} one verified chunk at a time.
 */
final class ContainerReader {
  /** Arrays from a stream larger than this are gathered in pieces of this size as the bytes arrive. */
  private static final int PIECE_SHIFT = 24;
  private static final int STAGE = 1 << 20;
  private static final int MIN_STAGE = 8 << 10;

  private final Source src;
  private final String name;
  private final MmapMode mmap;
  private final boolean checkMappedData;
  private final Path file;
  private final HeapBudget heap;
  private final List<Object> blobs = new ArrayList<>();
  private final CRC32C crc = new CRC32C();
  private final ByteBuffer head = ByteBuffer.allocate(Format.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
  private final ByteBuffer tail = ByteBuffer.allocate(Format.TRAILER).order(ByteOrder.LITTLE_ENDIAN);
  private ByteBuffer stage;
  private int alignment;
  private int major;
  private long sequence;
  private long objectBytes;
  private boolean mappedAny;

  // the record being read
  private int kind;
  private int subtype;
  private int flags;
  private long length;
  private long headerAt;

  ContainerReader(Source src, String name, MmapMode mmap, boolean checkMappedData, Path file, HeapBudget heap) {
    this.src = src;
    this.name = name;
    this.mmap = mmap;
    this.checkMappedData = checkMappedData;
    this.file = file;
    this.heap = heap;
  }

  CorruptFileException corrupt(String problem) {
    return new CorruptFileException(name, problem);
  }

  String name() {
    return name;
  }

  boolean mappedAny() {
    return mappedAny;
  }

  void readHeader() throws IOException {
    ByteBuffer h = ByteBuffer.allocate(Format.FILE_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    src.readFully(h);
    h.flip();
    byte[] magic = new byte[Format.MAGIC.length];
    h.get(magic);
    if (!Arrays.equals(magic, Format.MAGIC)) {
      throw corrupt("bad magic bytes: not a joblib4j container");
    }
    major = h.getShort() & 0xFFFF;
    h.getShort(); // minor versions only add things readers may ignore
    alignment = h.getInt();
    int crcAt = 28;
    if (h.getInt(crcAt) != ContainerWriter.crcOf(h.array(), crcAt)) {
      throw corrupt("checksum mismatch in the file header");
    }
    if (major < Format.OLDEST_MAJOR || major > Format.MAJOR) {
      throw new UnsupportedFormatVersionException(name, major, Format.MAJOR);
    }
    if (alignment <= 0 || alignment > Format.MAX_ALIGNMENT || Integer.bitCount(alignment) != 1) {
      throw corrupt("invalid alignment " + alignment + " in the file header");
    }
  }

  /** The next verified OBJECTS payload, materialising any blobs before it. */
  byte[] nextObjects() throws IOException {
    while (true) {
      readRecordHeader();
      if (kind == Format.KIND_BLOB) {
        blobs.add(readBlob());
      } else if (kind == Format.KIND_OBJECTS) {
        byte[] payload = readSmallPayload(Format.MAX_OBJECT_CHUNK);
        objectBytes += payload.length;
        return payload;
      } else if (kind == Format.KIND_SUMS) {
        throw corrupt("block sums in record #" + (sequence - 1) + " follow no array data");
      } else {
        throw corrupt("truncated value: the end record comes before the value is complete");
      }
    }
  }

  /** Checks that the END record follows and agrees with what was read, and nothing follows it. */
  void finish() throws IOException {
    readRecordHeader();
    if (kind != Format.KIND_END) {
      throw corrupt("expected the end record after the value, found a record of kind " + kind);
    }
    ByteBuffer p = ByteBuffer.wrap(readSmallPayload(Format.END_PAYLOAD)).order(ByteOrder.LITTLE_ENDIAN);
    if (length != Format.END_PAYLOAD || p.getLong() != blobs.size() || p.getLong() != objectBytes) {
      throw corrupt("the end record does not match the records before it (records lost or added?)");
    }
    long left = src.remaining();
    if (left > 0) {
      throw corrupt(left + " unexpected bytes after the end record");
    }
  }

  /** The blob with sequence number {@code id} among blobs, which must already have been read. */
  Object blob(long id) {
    if (id < 0 || id >= blobs.size()) {
      throw corrupt("reference to array #" + id + ", but only " + blobs.size() + " precede it");
    }
    return blobs.get((int) id);
  }

  private void readRecordHeader() throws IOException {
    head.clear();
    headerAt = src.position;
    src.readFully(head);
    if (head.getInt(28) != ContainerWriter.crcOf(head.array(), 28)) {
      throw corrupt("checksum mismatch in the header of record #" + sequence + " at offset " + (src.position - 32));
    }
    kind = head.get(0);
    subtype = head.get(1);
    flags = head.getShort(2) & 0xFFFF;
    int reserved = head.getInt(24) | (kind == Format.KIND_BLOB && subtype == Format.BLOB_NDARRAY
        ? flags & ~Format.FLAG_MUTABLE : flags);
    int pad = head.getInt(4);
    length = head.getLong(8);
    long seq = head.getLong(16);
    if (seq != sequence) {
      throw corrupt("record #" + seq + " found where record #" + sequence + " was expected (records lost or reordered)");
    }
    sequence++;
    if (kind < Format.KIND_BLOB || kind > (major >= 2 ? Format.KIND_SUMS : Format.KIND_END) || reserved != 0) {
      throw corrupt("unknown record kind " + kind + " (or non-zero reserved bytes) in record #" + seq);
    }
    boolean validSubtype = kind == Format.KIND_BLOB
        ? subtype == Format.BLOB_NDARRAY || Tags.elementSize(subtype) > 0 : subtype == 0;
    if (!validSubtype) {
      throw corrupt("unknown subtype " + subtype + " in record #" + seq);
    }
    if (pad < 0 || pad >= alignment) {
      throw corrupt("invalid padding " + pad + " in record #" + seq);
    }
    if (length < 0) {
      throw corrupt("negative length in record #" + seq);
    }
    long left = src.remaining();
    if (left >= 0 && (length > left - pad - Format.TRAILER)) {
      throw corrupt("record #" + seq + " declares " + length + " bytes but the file has only "
          + Math.max(0, left - pad - Format.TRAILER) + " left (truncated?)");
    }
    if (pad > 0) {
      ByteBuffer p = ByteBuffer.allocate(pad);
      src.readFully(p);
      for (int i = 0; i < pad; i++) {
        if (p.get(i) != 0) {
          throw corrupt("non-zero padding in record #" + seq);
        }
      }
    }
    if (kind == Format.KIND_BLOB && src.position % alignment != 0) {
      throw corrupt("array data of record #" + seq + " is not aligned to " + alignment + " bytes");
    }
    crc.reset();
  }

  private byte[] readSmallPayload(int max) throws IOException {
    if (length > max) {
      throw corrupt("record #" + (sequence - 1) + " declares " + length + " bytes, over the limit of " + max);
    }
    byte[] b = new byte[(int) length];
    src.readFully(ByteBuffer.wrap(b));
    crc.update(b, 0, b.length);
    checkTrailer();
    return b;
  }

  private void checkTrailer() throws IOException {
    tail.clear();
    src.readFully(tail);
    if (tail.getInt(0) != (int) crc.getValue()) {
      throw corrupt("checksum mismatch in record #" + (sequence - 1) + " (" + length + " bytes)");
    }
  }

  /**
   * The staging buffer for a record of {@code need} bytes: as large as the record (from 8 KiB),
   * grown up to {@link #STAGE} as records need. Most loads read small records, and a 1 MiB buffer
   * zeroed for each cost more than the load itself.
   */
  private ByteBuffer stage(long need) {
    if (stage == null || (stage.capacity() < STAGE && stage.capacity() < need)) {
      int size = (int) Math.min(STAGE, Math.max(MIN_STAGE, need));
      stage = src.newScratch(size).order(ByteOrder.LITTLE_ENDIAN);
    }
    return stage;
  }

  /** Charges the heap an array of the record's length will take, before it is allocated. */
  private void chargeArray() {
    heap.charge(HeapBudget.ARRAY + length);
  }

  private Object readBlob() throws IOException {
    if (subtype == Format.BLOB_NDARRAY) {
      return readArrayData();
    }
    int size = Tags.elementSize(subtype);
    if (length % size != 0 || length / size > Integer.MAX_VALUE - 8) {
      throw corrupt("array record #" + (sequence - 1) + " of " + length + " bytes does not hold a whole"
          + " number of elements, or more than a Java array can");
    }
    int n = (int) (length / size);
    if (src.remaining() < 0 && length > (1L << PIECE_SHIFT)) {
      // a stream: gather the bytes first so that a lying length costs only the bytes really there
      ByteStorage pieces = readPieces();
      Object a = PrimitiveArrays.newArray(subtype, n);
      int per = (1 << PIECE_SHIFT) / size;
      for (int i = 0, off = 0; off < n; i++, off += per) {
        ByteBuffer piece = pieces.segments()[i].duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (!PrimitiveArrays.fromBytes(piece, a, off, Math.min(per, n - off))) {
          throw corrupt("a boolean array holds a value other than 0 or 1");
        }
      }
      return a;
    }
    chargeArray();
    Object a = PrimitiveArrays.newArray(subtype, n);
    if (length >= ChecksumPipeline.MIN_BYTES) {
      readPipelined(a, n, size);
      return a;
    }
    ByteBuffer st = stage(length);
    int per = st.capacity() / size;
    for (int off = 0; off < n; off += per) {
      int k = Math.min(per, n - off);
      st.clear().limit(k * size);
      src.readFully(st);
      st.flip();
      crc.update(st.duplicate());
      if (!PrimitiveArrays.fromBytes(st, a, off, k)) {
        throw corrupt("a boolean array holds a value other than 0 or 1");
      }
    }
    checkTrailer();
    return a;
  }

  /** As the inline loop, with the checksum computed on a helper thread (file sources, large arrays). */
  private void readPipelined(Object a, int n, int size) throws IOException {
    try (ChecksumPipeline pipe = new ChecksumPipeline(src::newScratch, STAGE)) {
      int per = STAGE / size;
      for (int off = 0; off < n; off += per) {
        int k = Math.min(per, n - off);
        ByteBuffer st = pipe.take();
        st.limit(k * size);
        src.readFully(st);
        st.flip();
        pipe.submit(st);
        if (!PrimitiveArrays.fromBytes(st, a, off, k)) {
          throw corrupt("a boolean array holds a value other than 0 or 1");
        }
      }
      tail.clear();
      src.readFully(tail);
      if (tail.getInt(0) != pipe.value()) {
        throw corrupt("checksum mismatch in record #" + (sequence - 1) + " (" + length + " bytes)");
      }
    }
  }

  private ByteStorage readArrayData() throws IOException {
    ByteStorage s = readArrayPayload();
    if (major < 2) {
      return s;
    }
    long dataLength = length;
    long record = sequence - 1;
    boolean mutable = (flags & Format.FLAG_MUTABLE) != 0;
    long dataAt = s.file() != null ? s.fileOffset() : -1;
    int payloadCrc = tail.getInt(0);
    BlockSums sums = readSums(dataLength, record);
    if (!mutable && sums.combined(dataLength) != payloadCrc) {
      // the sums and the payload checksum disagree: one of them (or the data) was damaged, and a
      // lazy map would otherwise never look at the payload checksum
      throw corrupt("the block sums of the array data of record #" + record + " do not add up to its checksum"
          + " (CRC32C): the file was damaged after it was written");
    }
    // mapped READ_ONLY or COPY_ON_WRITE: each block is checked when first touched; READ_WRITE data
    // was checked whole before it was flagged, and a heap copy was checked as it was read
    if (dataAt >= 0 && checkMappedData && !mutable && mmap != MmapMode.READ_WRITE) {
      return s.checkedLazily(new BlockChecks(name, "record #" + record, dataAt, sums.shift(), sums.crcs()));
    }
    return s;
  }

  /** The CRC32Cs of blocks of {@code 1 << shift} bytes of a record's array data. */
  private record BlockSums(int shift, int[] crcs) {
    /** The CRC32C of the whole data of {@code length} bytes, from the blocks' (microseconds per GiB). */
    int combined(long length) {
      if (crcs.length == 0) {
        return 0;
      }
      CrcCombine combine = new CrcCombine(1L << shift);
      int whole = crcs[0];
      for (int i = 1; i < crcs.length - 1; i++) {
        whole = combine.append(whole, crcs[i]);
      }
      if (crcs.length > 1) {
        long last = length - ((long) (crcs.length - 1) << shift);
        whole = last == 1L << shift ? combine.append(whole, crcs[crcs.length - 1])
            : CrcCombine.append(whole, crcs[crcs.length - 1], last);
      }
      return whole;
    }
  }

  /** Reads the SUMS record that must follow the array data of record {@code record} (version 2). */
  private BlockSums readSums(long dataLength, long record) throws IOException {
    readRecordHeader();
    if (kind != Format.KIND_SUMS) {
      throw corrupt("record #" + (sequence - 1) + " is of kind " + kind + " where the block sums of the array data of"
          + " record #" + record + " belong (records lost or reordered?)");
    }
    long most = Format.SUMS_HEADER + 4 * BlockSummer.blockCount(dataLength, Format.MIN_BLOCK_SHIFT);
    ByteBuffer p = ByteBuffer.wrap(readSmallPayload((int) Math.min(Integer.MAX_VALUE - 8, most)))
        .order(ByteOrder.LITTLE_ENDIAN);
    if (p.remaining() < Format.SUMS_HEADER) {
      throw corrupt("block sums record #" + (sequence - 1) + " of " + p.remaining() + " bytes is too short");
    }
    int size = p.getInt();
    int n = p.getInt();
    if (Integer.bitCount(size) != 1 || size < 1 << Format.MIN_BLOCK_SHIFT || size > 1 << Format.MAX_BLOCK_SHIFT) {
      throw corrupt("invalid block size " + Integer.toUnsignedString(size) + " in block sums record #" + (sequence - 1));
    }
    int shift = Integer.numberOfTrailingZeros(size);
    if (n != BlockSummer.blockCount(dataLength, shift) || p.remaining() != 4L * n) {
      throw corrupt("block sums record #" + (sequence - 1) + " holds " + Integer.toUnsignedString(n) + " sums in "
          + p.remaining() + " bytes for " + dataLength + " bytes of array data in blocks of " + size);
    }
    int[] crcs = new int[n];
    p.asIntBuffer().get(crcs);
    return new BlockSums(shift, crcs);
  }

  private ByteStorage readArrayPayload() throws IOException {
    if (mmap != null && src.channel() != null) {
      ByteStorage s = ByteStorage.map(src.channel(), file, src.position, length, mmap);
      src.skip(length);
      tail.clear();
      src.readFully(tail);
      // version 1 has only the whole payload's checksum; READ_WRITE data is checked before it is flagged
      if (checkMappedData && (flags & Format.FLAG_MUTABLE) == 0 && (major < 2 || mmap == MmapMode.READ_WRITE)) {
        checkMapped(s);
      }
      if (mmap == MmapMode.READ_WRITE && (flags & Format.FLAG_MUTABLE) == 0) {
        markMutable();
      }
      mappedAny = true;
      return s;
    }
    if (src.remaining() < 0) {
      return readPieces();
    }
    chargeArray();
    ByteStorage s = ByteStorage.heap(length);
    ByteBuffer st = stage(length);
    for (long off = 0; off < length; ) {
      int k = (int) Math.min(st.capacity(), length - off);
      st.clear().limit(k);
      src.readFully(st);
      st.flip();
      crc.update(st.duplicate());
      s.write(off, st);
      off += k;
    }
    checkTrailerUnlessMutable();
    return s;
  }

  /** Reads the mapped data once to check it against the trailer, before anyone can write to it. */
  private void checkMapped(ByteStorage s) {
    for (ByteBuffer segment : s.segments()) {
      crc.update(segment.duplicate());
    }
    if (tail.getInt(0) != (int) crc.getValue()) {
      throw corrupt("checksum mismatch (CRC32C) in the mapped array data of record #" + (sequence - 1) + " ("
          + length + " bytes): the file was damaged after it was written");
    }
  }

  /**
   * Once array data is mapped READ_WRITE its bytes belong to the user (and to other processes
   * writing it), so its checksum can no longer hold: the record is flagged, in the file, before the
   * mapping is handed out, and later loads skip that one payload check instead of calling the
   * file corrupt.
   */
  private void markMutable() throws IOException {
    ByteBuffer h = ByteBuffer.allocate(Format.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    h.put(head.array());
    h.putShort(2, (short) (flags | Format.FLAG_MUTABLE));
    h.putInt(28, ContainerWriter.crcOf(h.array(), 28));
    h.clear();
    while (h.hasRemaining()) {
      src.channel().write(h, headerAt + h.position());
    }
    flags |= Format.FLAG_MUTABLE;
  }

  private void checkTrailerUnlessMutable() throws IOException {
    if ((flags & Format.FLAG_MUTABLE) != 0) {
      tail.clear();
      src.readFully(tail);
    } else {
      checkTrailer();
    }
  }

  /**
   * Reads the payload into 16 MiB heap pieces allocated (and charged to the heap budget) as the
   * data arrives, then checks it.
   */
  private ByteStorage readPieces() throws IOException {
    List<ByteBuffer> pieces = new ArrayList<>();
    for (long off = 0; off < length; ) {
      int k = (int) Math.min(1L << PIECE_SHIFT, length - off);
      heap.charge(HeapBudget.ARRAY + k); // as the bytes arrive: a lying length fails as truncated
      ByteBuffer piece = ByteBuffer.allocate(k);
      src.readFully(piece);
      piece.flip();
      crc.update(piece.duplicate());
      pieces.add(piece);
      off += k;
    }
    checkTrailerUnlessMutable();
    return ByteStorage.ofSegments(pieces.toArray(new ByteBuffer[0]), PIECE_SHIFT, length);
  }
}
