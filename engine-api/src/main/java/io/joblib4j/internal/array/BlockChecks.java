package io.joblib4j.internal.array;

import io.joblib4j.CorruptFileException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Lazy verification of mapped array data against per-block CRC32Cs (format version 2): a block is
 * checked the first time any of its bytes is read through its {@link ByteStorage}, so that mapping
 * a file costs nothing in its size and only what is read is ever checked.
 *
 * <p>Each block that checked out gets a buffer of its own in a table ({@link #table()}) that its
 * storage's element access indexes directly: a checked block is read through that buffer at the
 * cost of an unchecked storage's access, and an empty slot is what sends a reader to the check.
 *
 * <p>No read-ahead of its own: a check reads its block through the mapping, so the kernel's own
 * read-ahead for the mapping (8 MiB on this project's test machine) serves the check as it serves an
 * unchecked scan. A thread that read the next blocks ahead through a channel made a first scan of a
 * cold 8 GiB file slower, not faster: 1.28x the unchecked scan against 1.08x without it, on a quiet
 * machine (BENCHMARKS.md, "Lazy verified maps").
 *
 * <p>Thread safety without locks: a slot is filled (with release semantics) only after its block
 * checked out, and never emptied. Threads touching an unchecked block at once may each check it;
 * each then finds the bytes good (and stores an equivalent buffer) or throws. A reader that sees a
 * slot still empty merely checks the block again.
 */
public final class BlockChecks {
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(ByteBuffer[].class);

  private final String source;
  private final String record;
  private final long fileOffset;
  private final int shift;
  private final int[] sums;
  /** Slot {@code i}: block {@code i}'s bytes once it checked out, null before. */
  private final ByteBuffer[] table;

  /**
   * Checks for array data whose block {@code i} (bytes {@code [i << shift, (i + 1) << shift)} of the
   * data) has CRC32C {@code sums[i]}.
   *
   * @param source the file, for messages
   * @param record which record of the file holds the data, for messages ("record #3")
   * @param fileOffset where the data starts in the file, for messages
   * @param shift log2 of the block size; blocks never straddle a storage segment
   * @param sums the blocks' CRC32Cs, in order
   */
  public BlockChecks(String source, String record, long fileOffset, int shift, int[] sums) {
    if (shift > ByteStorage.MAPPED_SHIFT) {
      throw new IllegalArgumentException("blocks of 2^" + shift + " bytes would straddle mapped segments");
    }
    this.source = source;
    this.record = record;
    this.fileOffset = fileOffset;
    this.shift = shift;
    this.sums = sums;
    this.table = new ByteBuffer[sums.length];
  }

  /** The number of blocks. */
  public int blocks() {
    return sums.length;
  }

  /** Log2 of the block size. */
  int shift() {
    return shift;
  }

  /** The blocks' buffers for element access, shared, not copied: see {@link ByteStorage}. */
  ByteBuffer[] table() {
    return table;
  }

  /** The buffer of the block holding byte {@code off} of {@code s}, checked first unless it was. */
  ByteBuffer checkedBlock(ByteStorage s, long off) {
    int block = (int) (off >>> shift);
    if (off < 0 || block >= table.length) {
      throw new IndexOutOfBoundsException("byte " + off + " of " + s.byteSize());
    }
    ByteBuffer b = (ByteBuffer) SLOTS.getAcquire(table, block);
    return b != null ? b : check(s, block);
  }

  /** Checks every block that bytes {@code [off, off + len)} touch. */
  void ensure(ByteStorage s, long off, long len) {
    if (len <= 0) {
      return;
    }
    for (long block = off >>> shift, last = (off + len - 1) >>> shift; block <= last; block++) {
      if (block >= table.length || SLOTS.getAcquire(table, (int) block) == null) {
        check(s, (int) block);
      }
    }
  }

  /** Whether block {@code block} has been checked (for tests). */
  public boolean isChecked(int block) {
    return SLOTS.getAcquire(table, block) != null;
  }

  private ByteBuffer check(ByteStorage s, int block) {
    if (block < 0 || block >= sums.length) {
      throw new IndexOutOfBoundsException("byte block " + block + " of " + sums.length);
    }
    long from = (long) block << shift;
    int len = (int) Math.min(1L << shift, s.byteSize() - from);
    ByteBuffer bytes = s.rawSlice(from, len);
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    if ((int) crc.getValue() != sums[block]) {
      throw new CorruptFileException(source, "checksum mismatch (CRC32C) in block " + block + " of "
          + sums.length + " of the mapped array data of " + record + ": bytes " + from + ".." + (from + len - 1)
          + " of the array, file offsets " + (fileOffset + from) + ".." + (fileOffset + from + len - 1)
          + "; the file was damaged after it was written: restore it from a copy or write it again (for a Memory entry, memory.verify(true) removes damaged entries)");
    }
    ByteBuffer checked = s.rawSlice(from, len); // a fresh buffer: the check moved the other's position
    SLOTS.setRelease(table, block, checked);
    return checked;
  }
}
