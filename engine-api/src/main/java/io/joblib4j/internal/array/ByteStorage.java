package io.joblib4j.internal.array;

import io.joblib4j.MmapMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * The bytes of an array: a run of little-endian {@link ByteBuffer} segments of equal power-of-two
 * size (the last may be shorter). Segments exist because a Java 17 buffer is int-indexed, so one
 * mapping cannot exceed 2 GiB; a segment size that is a multiple of 8 means no element ever
 * straddles two segments.
 *
 * <p>Mapped storage remembers its file region so that another JVM can map the same bytes. {@link
 * #close()} drops the buffers and lets the garbage collector unmap them: unmapping eagerly
 * (Unsafe#invokeCleaner) would turn any later access through a view, or from another thread, into a
 * JVM crash instead of an exception.
 */
public final class ByteStorage {
  /** Mapped segments: 1 GiB, so a 10 GiB file needs 10 mappings. */
  public static final int MAPPED_SHIFT = 30;
  /** Heap segments: 1 GiB as well; smaller ones are used when filling from a stream of unknown size. */
  public static final int HEAP_SHIFT = 30;

  // not volatile: element access must stay a plain load; close() is best effort across threads
  private ByteBuffer[] segments;
  private final int shift;
  private final long mask;
  /**
   * What element access indexes by {@code off >>> cellShift}: the segments themselves, or for lazily
   * checked storage the table of its blocks ({@link BlockChecks#table()}), each slot null until its
   * block checked out. So the check costs a checked block's access nothing beyond the lookup any
   * access does: a null slot is the only sign of an unchecked block (issue 39).
   */
  private ByteBuffer[] cells;
  private final int cellShift;
  private final long cellMask;
  private final long byteSize;
  private final Path file;
  private final long fileOffset;
  private final MmapMode mode;
  /** Lazy per-block checks of mapped data (format version 2), or null: nothing left to check. */
  private final BlockChecks checks;

  private ByteStorage(ByteBuffer[] segments, int shift, long byteSize, Path file, long fileOffset, MmapMode mode) {
    this(segments, shift, byteSize, file, fileOffset, mode, null);
  }

  private ByteStorage(ByteBuffer[] segments, int shift, long byteSize, Path file, long fileOffset, MmapMode mode,
      BlockChecks checks) {
    this.checks = checks;
    this.segments = segments;
    this.shift = shift;
    this.mask = (1L << shift) - 1;
    this.cells = checks == null ? segments : checks.table();
    this.cellShift = checks == null ? shift : checks.shift();
    this.cellMask = (1L << cellShift) - 1;
    this.byteSize = byteSize;
    this.file = file;
    this.fileOffset = fileOffset;
    this.mode = mode;
  }

  /** Zero-filled heap storage of {@code bytes} bytes. */
  public static ByteStorage heap(long bytes) {
    return heap(bytes, HEAP_SHIFT);
  }

  /** Zero-filled heap storage of {@code bytes} bytes in segments of {@code 1 << shift} bytes. */
  public static ByteStorage heap(long bytes, int shift) {
    int n = segmentCount(bytes, shift);
    ByteBuffer[] segs = new ByteBuffer[n];
    for (int i = 0; i < n; i++) {
      long size = Math.min(1L << shift, bytes - ((long) i << shift));
      segs[i] = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
    }
    return new ByteStorage(segs, shift, bytes, null, 0, null);
  }

  /** Heap storage over already filled segments (all but the last of exactly {@code 1 << shift} bytes). */
  public static ByteStorage ofSegments(ByteBuffer[] segments, int shift, long bytes) {
    for (int i = 0; i < segments.length; i++) {
      segments[i].order(ByteOrder.LITTLE_ENDIAN);
    }
    return new ByteStorage(segments, shift, bytes, null, 0, null);
  }

  /**
   * Maps {@code bytes} bytes of {@code file} from {@code offset}. The region must exist (checked, so
   * that a READ_WRITE mapping never silently grows the file).
   */
  public static ByteStorage map(Path file, long offset, long bytes, MmapMode mode) throws IOException {
    Set<StandardOpenOption> opts = mode != MmapMode.READ_ONLY // PRIVATE maps need a writable channel too
        ? EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE) : EnumSet.of(StandardOpenOption.READ);
    try (FileChannel ch = FileChannel.open(file, opts)) {
      return map(ch, file, offset, bytes, mode);
    }
  }

  /** As {@link #map(Path, long, long, MmapMode)}, over an open channel (which may be closed afterwards). */
  public static ByteStorage map(FileChannel ch, Path file, long offset, long bytes, MmapMode mode) throws IOException {
    if (offset < 0 || bytes < 0) {
      throw new IllegalArgumentException("negative offset " + offset + " or length " + bytes);
    }
    long size = ch.size();
    if (offset > size || bytes > size - offset) {
      throw new IllegalArgumentException(file + " has " + size + " bytes, too few to map " + bytes
          + " bytes from offset " + offset);
    }
    FileChannel.MapMode mm = mode == MmapMode.READ_WRITE ? FileChannel.MapMode.READ_WRITE
        : mode == MmapMode.COPY_ON_WRITE ? FileChannel.MapMode.PRIVATE : FileChannel.MapMode.READ_ONLY;
    int n = segmentCount(bytes, MAPPED_SHIFT);
    ByteBuffer[] segs = new ByteBuffer[n];
    for (int i = 0; i < n; i++) {
      long start = (long) i << MAPPED_SHIFT;
      long len = Math.min(1L << MAPPED_SHIFT, bytes - start);
      segs[i] = ch.map(mm, offset + start, len).order(ByteOrder.LITTLE_ENDIAN);
    }
    if (n == 0) {
      segs = new ByteBuffer[0];
    }
    return new ByteStorage(segs, MAPPED_SHIFT, bytes, file.toAbsolutePath(), offset, mode);
  }

  /**
   * This storage's bytes, each block checked by {@code checks} the first time it is read (or, for a
   * copy-on-write mapping, written) through this storage or any array viewing it. Only mapped
   * storage, whose segments are as large as blocks can be, is checked this way.
   */
  public ByteStorage checkedLazily(BlockChecks checks) {
    if (file == null) {
      throw new IllegalStateException("only mapped storage is checked lazily");
    }
    return new ByteStorage(live(), shift, byteSize, file, fileOffset, mode, checks);
  }

  /** The lazy checks, or null. */
  public BlockChecks checks() {
    return checks;
  }

  private static int segmentCount(long bytes, int shift) {
    long n = (bytes + (1L << shift) - 1) >>> shift;
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("array of " + bytes + " bytes is too large");
    }
    return (int) n;
  }

  public long byteSize() {
    return byteSize;
  }

  /** The mapped file, or {@code null} for heap storage. */
  public Path file() {
    return file;
  }

  public long fileOffset() {
    return fileOffset;
  }

  /** The mapping mode, or {@code null} for heap storage. */
  public MmapMode mode() {
    return mode;
  }

  public boolean isWritable() {
    return mode == null || mode != MmapMode.READ_ONLY;
  }

  public int shift() {
    return shift;
  }

  /**
   * The segments (shared, not copied), raw: <b>not verified</b> against a lazily checked storage's
   * block sums ({@link #checks()}); a caller reading them from such a storage checks the range it
   * reads first ({@link #ensureChecked}), or reads through {@link #slice} instead.
   */
  public ByteBuffer[] segments() {
    return live();
  }

  private ByteBuffer[] live() {
    ByteBuffer[] s = segments;
    if (s == null) {
      throw new IllegalStateException("this array was closed" + (file == null ? "" : " (it was mapped from "
          + file + ")") + "; load or map it again");
    }
    return s;
  }

  private ByteBuffer seg(long off) {
    return live()[(int) (off >>> shift)];
  }

  private int pos(long off) {
    return (int) (off & mask);
  }

  /**
   * The buffer holding byte {@code off} for element access: one lookup, then for a block not yet
   * checked the check (which fills the slot, or throws if the block is damaged). Writes to a
   * copy-on-write mapping come here too, so a private copy's block is checked before it differs
   * from the file. Blocks are a power of two of at least 4 KiB, so no element straddles two.
   *
   * <p>The slot is read with a plain load. A stale null only sends the reader to the check, which
   * finds the block checked or checks it again. A non-null slot was stored with release semantics
   * after the block checked out and its buffer was built, and the reader's loads through it depend
   * on the slot's value, so they see the built buffer.
   */
  private ByteBuffer cell(long off) {
    ByteBuffer[] c = cells;
    if (c == null) {
      live(); // throws: closed
    }
    ByteBuffer b = c[(int) (off >>> cellShift)];
    return b != null ? b : checks.checkedBlock(this, off);
  }

  private int cellPos(long off) {
    return (int) (off & cellMask);
  }

  public byte getByte(long off) {
    return cell(off).get(cellPos(off));
  }

  public short getShort(long off) {
    return cell(off).getShort(cellPos(off));
  }

  public int getInt(long off) {
    return cell(off).getInt(cellPos(off));
  }

  public long getLong(long off) {
    return cell(off).getLong(cellPos(off));
  }

  public float getFloat(long off) {
    return cell(off).getFloat(cellPos(off));
  }

  public double getDouble(long off) {
    return cell(off).getDouble(cellPos(off));
  }

  public void putByte(long off, byte v) {
    cell(off).put(cellPos(off), v);
  }

  public void putShort(long off, short v) {
    cell(off).putShort(cellPos(off), v);
  }

  public void putInt(long off, int v) {
    cell(off).putInt(cellPos(off), v);
  }

  public void putLong(long off, long v) {
    cell(off).putLong(cellPos(off), v);
  }

  public void putFloat(long off, float v) {
    cell(off).putFloat(cellPos(off), v);
  }

  public void putDouble(long off, double v) {
    cell(off).putDouble(cellPos(off), v);
  }

  /**
   * A little-endian view of bytes {@code [off, off + len)}, which must lie in one segment, checked
   * first if this storage is checked lazily. Callers must not write through it.
   */
  public ByteBuffer slice(long off, int len) {
    ensureChecked(off, len);
    return rawSlice(off, len);
  }

  /** Checks the blocks of bytes {@code [off, off + len)} of a lazily checked storage; no-op otherwise. */
  public void ensureChecked(long off, long len) {
    BlockChecks c = checks;
    if (c != null) {
      c.ensure(this, off, len);
    }
  }

  /** As {@link #slice}, <b>not verified</b>: for the checks themselves. */
  ByteBuffer rawSlice(long off, int len) {
    ByteBuffer s = seg(off).duplicate();
    int p = pos(off);
    s.limit(p + len).position(p);
    return s.slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Copies {@code src}'s remaining bytes to {@code [off, ...)}, across segments as needed. */
  public void write(long off, ByteBuffer src) {
    ensureChecked(off, src.remaining());
    while (src.hasRemaining()) {
      int n = (int) Math.min(src.remaining(), bytesInSegment(off));
      seg(off).put(pos(off), src, src.position(), n);
      src.position(src.position() + n);
      off += n;
    }
  }

  /** How many bytes from {@code off} lie in the same segment. */
  public long bytesInSegment(long off) {
    long segEnd = Math.min(((off >>> shift) + 1) << shift, byteSize);
    return segEnd - off;
  }

  /** Writes dirty pages of a READ_WRITE mapping to the file; no-op otherwise. */
  public void force() {
    ByteBuffer[] s = segments;
    if (s == null || mode != MmapMode.READ_WRITE) {
      return;
    }
    for (ByteBuffer b : s) {
      ((MappedByteBuffer) b).force();
    }
  }

  /** Forces a READ_WRITE mapping and drops the buffers; later access throws IllegalStateException. */
  public void close() {
    try {
      force();
    } catch (UncheckedIOException e) {
      throw e;
    } finally {
      segments = null;
      cells = null;
    }
  }

  public boolean isClosed() {
    return segments == null;
  }
}
