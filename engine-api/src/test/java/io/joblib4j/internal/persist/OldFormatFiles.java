package io.joblib4j.internal.persist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Files in format version 1 (no block sums), as joblib4j wrote them before lazily verified maps:
 * what users' existing files and caches hold, which must stay readable and be checked whole.
 */
public final class OldFormatFiles {
  private OldFormatFiles() {}

  /** Dumps {@code value} to {@code file}, uncompressed, in format version 1. */
  public static void dumpVersion1(Object value, Path file) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      new ValueEncoder(new ContainerWriter(Sink.of(ch), 1)).writeRoot(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The format version this joblib4j writes. */
  public static int currentVersion() {
    return Format.MAJOR;
  }
}
