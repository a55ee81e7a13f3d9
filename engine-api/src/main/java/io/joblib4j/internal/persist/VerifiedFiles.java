package io.joblib4j.internal.persist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The versions of files whose mapped array data this JVM has checked against their CRC32Cs, so that
 * mapping the same file again costs two {@code stat}s instead of a read of the whole file (Memory's
 * mapped hits and {@code Joblib.load} with an mmap mode both go through here).
 *
 * <p>A version is the absolute path, the size, the modification time and the file key (device and
 * inode on Unix): a file rewritten and renamed into place is a new version even with the same size
 * and time. A change in place keeps the inode, and file times are coarse (a jiffy, or 2 s on FAT),
 * so a file modified less than {@link #RACY_MILLIS} before its check started is not remembered and is
 * checked again next time — git's "racy clean" rule.
 */
final class VerifiedFiles {
  /** Files modified this recently before their check are checked again on their next map. */
  static final long RACY_MILLIS = 2_000;
  /** Beyond this many remembered versions the set starts over (re-checking is the only cost). */
  private static final int MAX_REMEMBERED = 1 << 16;
  private static final Set<Version> VERIFIED = ConcurrentHashMap.newKeySet();

  private VerifiedFiles() {}

  /**
   * What identifies one version of a file without reading it; {@code links} says how it was read
   * (following links for a user's path, not for a store's file opened without following them).
   */
  record Version(Path file, long size, FileTime modified, Object key, LinkOption... links) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Version v && v.file.equals(file) && v.size == size && v.modified.equals(modified)
          && java.util.Objects.equals(v.key, key);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(file, size, modified, key);
    }
  }

  /** The version of {@code file} now, read with {@code links} (none: following links). */
  static Version version(Path file, LinkOption... links) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, links);
    return new Version(file.toAbsolutePath(), a.size(), a.lastModifiedTime(), a.fileKey(), links);
  }

  static boolean verified(Version v) {
    return v.key() != null && VERIFIED.contains(v);
  }

  /**
   * Remembers {@code v} as checked by a check that started at {@code checkStartMillis}, unless the
   * file may have changed within the clock's granularity of that moment. Without a file key (some
   * file systems have none) nothing is remembered: the path alone cannot tell a rewrite apart.
   */
  static void remember(Version v, long checkStartMillis) {
    if (v.key() == null || v.modified().toMillis() > checkStartMillis - RACY_MILLIS) {
      return;
    }
    if (VERIFIED.size() >= MAX_REMEMBERED) {
      VERIFIED.clear();
    }
    VERIFIED.add(v);
  }
}
