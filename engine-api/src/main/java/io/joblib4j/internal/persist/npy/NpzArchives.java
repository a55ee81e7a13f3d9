package io.joblib4j.internal.persist.npy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.LoadOptions;
import io.joblib4j.array.NDArray;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * numpy's {@code .npz}: a zip archive ({@code np.savez} stores, {@code np.savez_compressed} deflates)
 * of one {@code .npy} entry per array, named for its key plus {@code .npy}. Read with the JDK's
 * {@link ZipFile}; every entry's CRC-32 is checked, the arrays' bytes together are bounded by
 * {@link LoadOptions#maxHeapBytes()} before they are read (so a deflate bomb costs at most that), and
 * an entry must end where its array does.
 */
final class NpzArchives {
  /** A zip's local file header, and the end record of an empty zip. */
  private static final byte[] LOCAL = {'P', 'K', 3, 4};
  private static final byte[] EMPTY = {'P', 'K', 5, 6};

  private NpzArchives() {}

  static boolean isZip(byte[] head) {
    return startsWith(head, LOCAL) || startsWith(head, EMPTY);
  }

  private static boolean startsWith(byte[] head, byte[] magic) {
    return head.length >= magic.length && java.util.Arrays.equals(head, 0, magic.length, magic, 0, magic.length);
  }

  /** The arrays of the archive {@code file}, by key, in the archive's order. */
  static Map<String, NDArray> load(Path file, LoadOptions options) throws IOException {
    String source = file.toString();
    Map<String, NDArray> out = new LinkedHashMap<>();
    long budget = options.maxHeapBytes();
    ZipFile zip;
    try {
      zip = new ZipFile(file.toFile());
    } catch (FileSystemException e) {
      throw e; // the file itself (gone, permissions): an I/O error, not bad data
    } catch (IOException e) {
      // ZipException, or an EOFException where the end record claims more than the file holds
      throw new CorruptFileException(source, "not a valid zip archive (a numpy .npz is one): "
          + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()), e);
    }
    try (zip) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        if (e.isDirectory()) {
          continue;
        }
        String name = e.getName();
        String key = name.endsWith(".npy") ? name.substring(0, name.length() - 4) : name;
        String where = source + " entry " + name;
        if (out.containsKey(key)) {
          throw new CorruptFileException(source, "the archive holds the array '" + key + "' twice");
        }
        CRC32 crc = new CRC32();
        try (InputStream raw = zip.getInputStream(e);
             CheckedInputStream in = new CheckedInputStream(new BufferedInputStream(raw, 1 << 16), crc)) {
          long declared = e.getSize() >= 0 ? e.getSize() : Long.MAX_VALUE;
          NpyHeader h = NpyHeader.read(n -> {
            byte[] b = in.readNBytes(n);
            if (b.length < n) {
              throw new EOFException();
            }
            return b;
          }, declared, where);
          long bytes = h.dataBytes();
          if (bytes > budget) {
            throw new CorruptFileException(source, "the arrays of the archive would take more than " + options.maxHeapBytes()
                + " bytes of heap (LoadOptions.maxHeapBytes, by default half the maximum heap), at entry " + name
                + "; raise it with LoadOptions.builder().maxHeapBytes(...) or -D" + LoadOptions.MAX_HEAP_BYTES_PROPERTY
                + "=<size> if the archive is what you expect");
          }
          budget -= bytes;
          NDArray a = NpyReader.readData(in, h, where, options);
          if (in.read() >= 0) {
            throw new CorruptFileException(source, "the entry " + name + " holds bytes after its array's data");
          }
          if (crc.getValue() != e.getCrc()) {
            throw new CorruptFileException(source, "the entry " + name + " is damaged: its CRC-32 is "
                + Long.toHexString(crc.getValue()) + ", the archive says " + Long.toHexString(e.getCrc()));
          }
          out.put(key, a);
        } catch (ZipException | EOFException ex) {
          throw new CorruptFileException(source, "the entry " + name + " cannot be read: "
              + (ex.getMessage() != null ? ex.getMessage() : ex.getClass().getSimpleName()), ex);
        }
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      // the JDK's zip reader's verdict on malformed entry names and fields
      throw new CorruptFileException(source, "not a valid zip archive (a numpy .npz is one): " + e.getMessage(), e);
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * Writes {@code arrays} as a {@code .npz} to {@code out}, each entry {@code key + ".npy"}: stored
   * (numpy's {@code savez}) when {@code level} is negative, else deflated at {@code level} (numpy's
   * {@code savez_compressed}). {@code out} is finished, not closed.
   */
  static void write(Map<String, NDArray> arrays, OutputStream out, int level) throws IOException {
    ZipOutputStream zip = new ZipOutputStream(out);
    if (level >= 0) {
      zip.setLevel(level);
    }
    for (Map.Entry<String, NDArray> e : arrays.entrySet()) {
      ZipEntry entry = new ZipEntry(e.getKey() + ".npy");
      if (level < 0) {
        // a stored entry's size and CRC precede its data: one pass to learn them, one to write
        CRC32 crc = new CRC32();
        long[] size = {0};
        NpyWriter.write(e.getValue(), b -> {
          size[0] += b.remaining();
          crc.update(b);
        });
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(size[0]);
        entry.setCompressedSize(size[0]);
        entry.setCrc(crc.getValue());
      } else {
        entry.setMethod(ZipEntry.DEFLATED);
      }
      zip.putNextEntry(entry);
      byte[] chunk = new byte[1 << 16];
      IOException[] failure = {null};
      NpyWriter.write(e.getValue(), b -> {
        while (b.hasRemaining() && failure[0] == null) {
          int n = Math.min(chunk.length, b.remaining());
          b.get(chunk, 0, n);
          try {
            zip.write(chunk, 0, n);
          } catch (IOException x) {
            failure[0] = x;
          }
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
      zip.closeEntry();
    }
    zip.finish();
  }
}
