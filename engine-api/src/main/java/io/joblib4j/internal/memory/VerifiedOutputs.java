package io.joblib4j.internal.memory;

import io.joblib4j.CacheMetadata;
import io.joblib4j.CorruptFileException;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * Checks a memory-mapped output against the CRC32C in its metadata.json once per JVM: a mapped
 * load does not read the array data, so without this a damaged array would be served. Later hits
 * of the same file (same path, size, modification time and file identity — entries are immutable)
 * skip the check, which keeps mapped hits at a fraction of a millisecond.
 */
final class VerifiedOutputs {
  private static final Set<String> VERIFIED = ConcurrentHashMap.newKeySet();
  private static final int CHUNK = 1 << 30;

  private VerifiedOutputs() {}

  /** Checks the local file {@code file} (a remote store's verified copy, say), opening it by its path. */
  static void verifyOnce(Store store, String entry, Path file) throws IOException {
    BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      verifyOnce(store, entry, id(file, attrs), ch);
    }
  }

  /** The identity of a version of a file: a new one is checked again. */
  static String id(Path file, BasicFileAttributes attrs) {
    return file + "|" + attrs.size() + "|" + attrs.lastModifiedTime().toMillis() + "|" + attrs.fileKey();
  }

  /** Checks the file open as {@code ch}, known as {@code id}, unless that version was checked already. */
  static void verifyOnce(Store store, String entry, String id, FileChannel ch) throws IOException {
    if (VERIFIED.contains(id)) {
      return;
    }
    CacheMetadata m = CachedFunction.readMetadata(store, entry);
    if (m == null) {
      throw new CorruptFileException(entry, "its metadata.json is missing or unreadable");
    }
    long size = ch.size();
    if (m.outputBytes() != size) {
      throw new CorruptFileException(entry, "its output has " + size + " bytes, its metadata says " + m.outputBytes());
    }
    CRC32C crc = new CRC32C();
    for (long pos = 0; pos < size; pos += CHUNK) {
      MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, pos, Math.min(CHUNK, size - pos));
      crc.update(b);
    }
    String actual = String.format("%08x", crc.getValue());
    if (!actual.equals(m.outputCrc32c())) {
      throw new CorruptFileException(entry, "its output's CRC32C is " + actual + ", its metadata says " + m.outputCrc32c());
    }
    VERIFIED.add(id);
  }
}
