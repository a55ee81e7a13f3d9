package io.joblib4j.internal.worker;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Serialized results: in memory up to {@code spillOver} bytes, then in a new file (the bytes so
 * far first). Past {@code limit} bytes nothing more is kept, only counted, for the message.
 */
final class SpillingBytes extends OutputStream {
  /** A write to the spill file failed: not the results' fault. */
  static final class SpillFailed extends IOException {
    private static final long serialVersionUID = 1L;

    SpillFailed(IOException cause) {
      super(cause);
    }
  }

  private final Path folder;
  private final String name;
  private final long spillOver;
  private final long limit;
  private ByteArrayOutputStream memory = new ByteArrayOutputStream(256);
  private OutputStream fileOut;
  private Path file;
  private long total;

  SpillingBytes(Path folder, String name, long spillOver, long limit) {
    this.folder = folder;
    this.name = name;
    this.spillOver = spillOver;
    this.limit = limit;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    total += len;
    if (total > limit) {
      return;
    }
    if (fileOut == null && total > spillOver) {
      spill();
    }
    if (fileOut == null) {
      memory.write(b, off, len);
      return;
    }
    try {
      fileOut.write(b, off, len);
    } catch (IOException e) {
      throw new SpillFailed(e);
    }
  }

  private void spill() throws SpillFailed {
    try {
      file = Files.createTempFile(folder, name + "-", ".bin");
      fileOut = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.WRITE), 1 << 16);
      memory.writeTo(fileOut);
      memory = null;
    } catch (IOException e) {
      throw new SpillFailed(e);
    }
  }

  @Override
  public void flush() throws IOException {
    if (fileOut != null) {
      try {
        fileOut.flush();
      } catch (IOException e) {
        throw new SpillFailed(e);
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (fileOut != null) {
      try {
        fileOut.close();
      } catch (IOException e) {
        throw new SpillFailed(e);
      }
    }
  }

  /** Bytes written, kept or not. */
  long total() {
    return total;
  }

  boolean spilled() {
    return file != null;
  }

  /** The spill file, if {@link #spilled}. */
  Path file() {
    return file;
  }

  /** The bytes, if not {@link #spilled}. */
  byte[] toByteArray() {
    return memory.toByteArray();
  }

  /** Deletes the spill file, if any: the results are not sent. */
  void discard() {
    try {
      if (fileOut != null) {
        fileOut.close();
      }
    } catch (IOException e) {
      // deleting it anyway
    }
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // the parent's sweep of its folder removes it
      }
    }
  }
}
