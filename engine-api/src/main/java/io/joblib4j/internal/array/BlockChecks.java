package io.joblib4j.internal.array;

import io.joblib4j.CorruptFileException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Lazy verification of mapped array data against per-block CRC32Cs (format version 2): a block is
 * checked the first time any of its bytes is read through its {@link ByteStorage}, so that mapping
 * a file costs nothing in its size and only what is read is ever checked.
 *
 * <p>Thread safety without locks: a block's bit is set (atomically, OR-ing into its word) only
 * after the block checked out, and readers test bits with a plain load. A reader that sees a stale
 * word merely checks the block again; a word read while another thread sets a bit can only lack
 * bits, never gain one, since bits are only ever added. So a bit seen set always means "checked".
 */
public final class BlockChecks {
  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

  /** Blocks read ahead of a sequential scan. */
  private static final int READ_AHEAD = 2;

  private final Path file;
  private final String source;
  private final String record;
  private final long fileOffset;
  private final int shift;
  private final int[] sums;
  private final long[] checked;

  /**
   * Checks for array data whose block {@code i} (bytes {@code [i << shift, (i + 1) << shift)} of the
   * data) has CRC32C {@code sums[i]}.
   *
   * @param file the mapped file, read ahead of sequential scans (never changed or checked through)
   * @param source the file, for messages
   * @param record which record of the file holds the data, for messages ("record #3")
   * @param fileOffset where the data starts in the file, for messages
   * @param shift log2 of the block size; blocks never straddle a storage segment
   * @param sums the blocks' CRC32Cs, in order
   */
  public BlockChecks(Path file, String source, String record, long fileOffset, int shift, int[] sums) {
    if (shift > ByteStorage.MAPPED_SHIFT) {
      throw new IllegalArgumentException("blocks of 2^" + shift + " bytes would straddle mapped segments");
    }
    this.file = file;
    this.source = source;
    this.record = record;
    this.fileOffset = fileOffset;
    this.shift = shift;
    this.sums = sums;
    this.checked = new long[(sums.length + 63) >>> 6];
  }

  /** The number of blocks. */
  public int blocks() {
    return sums.length;
  }

  /** Checks the block holding byte {@code off} of {@code s} unless it was checked: the hot path. */
  void ensure(ByteStorage s, long off) {
    long block = off >>> shift;
    if ((checked[(int) (block >>> 6)] & (1L << block)) == 0) {
      check(s, (int) block);
    }
  }

  /** Checks every block that bytes {@code [off, off + len)} touch. */
  void ensure(ByteStorage s, long off, long len) {
    if (len <= 0) {
      return;
    }
    for (long block = off >>> shift, last = (off + len - 1) >>> shift; block <= last; block++) {
      if ((checked[(int) (block >>> 6)] & (1L << block)) == 0) {
        check(s, (int) block);
      }
    }
  }

  /** Whether block {@code block} has been checked (for tests). */
  public boolean isChecked(int block) {
    return (checked[block >>> 6] & (1L << block)) != 0;
  }

  private void check(ByteStorage s, int block) {
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
    WORDS.getAndBitwiseOr(checked, block >>> 6, 1L << block);
    int ahead = block + READ_AHEAD;
    if (file != null && (block == 0 || isChecked(block - 1))) { // a sequential scan: keep the disk busy
      for (int next = block == 0 ? 1 : ahead; next <= ahead && next < sums.length; next++) {
        if (!isChecked(next)) {
          long at = (long) next << shift;
          ReadAhead.request(file, fileOffset + at, Math.min(1L << shift, s.byteSize() - at));
        }
      }
    }
  }
}
