package io.joblib4j.internal.array;

import io.joblib4j.array.InsufficientSpaceException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Creates the file of a memory-mapped array with its space reserved. A mapped file that is sparse
 * (numpy's {@code w+}) takes its blocks when its pages are first written; on a full disk the write
 * then faults ({@code SIGBUS}), which the JVM reports as an {@code InternalError} wherever the
 * array happened to be written. Reserving the blocks when the file is created turns that into an
 * {@link InsufficientSpaceException} at creation, naming the file and the file system.
 *
 * <p>How, as measured (BENCHMARKS.md, "Mapped array files"): a free-space check first (one {@code
 * statvfs}); then, for files of 4 MiB and more, the system's {@code fallocate(1)} where there is one
 * (it reserves blocks without writing them: tens of milliseconds per GiB on ext4, where writing
 * zeros takes seconds), else — and for smaller files, or file systems without {@code fallocate} —
 * zeros written over the whole length. {@code -Djoblib4j.mappedArrays.reserve=false} keeps files
 * sparse (the check at creation stays; a disk filled by others afterwards can then fault).
 */
public final class ArrayFiles {
  /** The system property that turns reservation off ({@code false}). */
  public static final String RESERVE_PROPERTY = "joblib4j.mappedArrays.reserve";
  private static final long TOOL_THRESHOLD = 4L << 20;
  private static final int ZEROS = 1 << 20;
  private static volatile boolean noTool;

  private ArrayFiles() {}

  /**
   * Creates (or truncates) {@code file} with {@code bytes} bytes of zeros, its space reserved, and
   * returns it open for reading and writing.
   *
   * @throws InsufficientSpaceException if the file does not fit on its file system (the file is then
   *     removed)
   */
  public static FileChannel create(Path file, long bytes) throws IOException {
    Path absolute = file.toAbsolutePath();
    checkFreeSpace(absolute, bytes);
    FileChannel ch = FileChannel.open(absolute, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    try {
      if (bytes > 0) {
        reserve(ch, absolute, bytes);
      }
      return ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      Files.deleteIfExists(absolute); // nothing half-reserved stays behind
      throw e;
    }
  }

  private static void checkFreeSpace(Path file, long bytes) throws IOException {
    FileStore store = Files.getFileStore(file.getParent());
    long freed = 0;
    try {
      freed = Files.size(file); // truncating the old file gives its blocks back
    } catch (NoSuchFileException e) {
      // a new file
    }
    long usable = store.getUsableSpace() + freed;
    if (usable < bytes) {
      throw new InsufficientSpaceException(file, store.toString(), bytes, usable, null);
    }
  }

  private static void reserve(FileChannel ch, Path file, long bytes) throws IOException {
    if (!Boolean.parseBoolean(System.getProperty(RESERVE_PROPERTY, "true"))) {
      ch.write(ByteBuffer.allocate(1), bytes - 1); // sets the length; the hole reads as zeros
      return;
    }
    if (bytes >= TOOL_THRESHOLD && fallocate(file, bytes) && ch.size() == bytes) {
      return;
    }
    writeZeros(ch, file, bytes);
  }

  /** Writes {@code bytes} zeros from offset 0, so the file system allocates every block now. */
  static void writeZeros(FileChannel ch, Path file, long bytes) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(ZEROS, bytes));
    try {
      for (long pos = 0; pos < bytes; ) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - pos));
        pos += ch.write(zeros, pos);
      }
    } catch (IOException e) {
      if (outOfSpace(e)) {
        throw new InsufficientSpaceException(file, describe(file), bytes, -1, e);
      }
      throw e;
    }
  }

  /** Reserves with the system's {@code fallocate(1)}; false where there is none or the file system cannot. */
  private static boolean fallocate(Path file, long bytes) throws IOException {
    if (noTool) {
      return false;
    }
    Process p;
    try {
      p = new ProcessBuilder("fallocate", "-l", Long.toString(bytes), file.toString()).redirectErrorStream(true).start();
    } catch (IOException missing) {
      noTool = true; // not on this system: zeros from now on
      return false;
    }
    try {
      String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      int exit = p.waitFor();
      if (exit == 0) {
        return true;
      }
      if (said.contains("No space left") || said.contains("quota exceeded")) {
        throw new InsufficientSpaceException(file, describe(file), bytes, -1, new IOException(said));
      }
      return false; // not supported on this file system (NFS, ...): zeros instead
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reserving the space of " + file);
    }
  }

  private static boolean outOfSpace(IOException e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("No space left") || m.contains("quota exceeded");
  }

  private static String describe(Path file) {
    try {
      return Files.getFileStore(file.getParent()).toString();
    } catch (IOException e) {
      return "unknown file system of " + file.getParent();
    }
  }
}
