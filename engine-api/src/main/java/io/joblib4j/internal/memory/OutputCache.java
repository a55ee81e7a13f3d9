package io.joblib4j.internal.memory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of the small entry outputs this JVM has read from local stores, each kept with the
 * {@link FileStamp} of the file they were read from, so that a hit on an entry read before costs one
 * {@code stat} instead of walking the tree through folder handles (two folders and the file, each
 * checked and opened: 20 system calls where {@code Files.readAllBytes} makes 5).
 *
 * <p>An entry is never changed once published: it is replaced by a new folder, or deleted. Both
 * change what the stamp's {@code stat} finds at the output's path: nothing (a miss), or a file with
 * another inode or change time (read again). Held bytes are decoded again on every hit, with every
 * check a read makes (the call key in the output, the allow-list), and the caller gets a value of its
 * own, as from a read.
 *
 * <p>Only files whose change time has settled are held: one at least {@link #settle} old. A file
 * replaced within the same tick of the file system's clock as the held one, reusing its inode and
 * its size, would otherwise look unchanged. Until then (a second after publishing, in practice the
 * time between a miss and the next call) every hit reads the file. On NFS the change time is the
 * server's: a server clock behind this machine's by more than {@link #settle} weakens that check.
 *
 * <p>Bounded: a file over {@link #MAX_FILE_BYTES} is never held, and when the held bytes would pass
 * {@link #MAX_HELD_BYTES} everything is forgotten (forgetting only costs a read).
 */
final class OutputCache {
  /** The largest output held: small results, the hits whose time is system calls rather than bytes. */
  static final int MAX_FILE_BYTES = 64 << 10;
  /** All the outputs held in this JVM, together. */
  static final long MAX_HELD_BYTES = 16L << 20;
  /** How old a file's change time must be before its bytes are held (tests shorten it). */
  static volatile Duration settle = Duration.ofSeconds(2);

  private record Key(Path root, String path) {}

  private record Held(FileStamp stamp, byte[] bytes) {}

  private static final ConcurrentHashMap<Key, Held> HELD = new ConcurrentHashMap<>();
  private static final AtomicLong HELD_BYTES = new AtomicLong();

  private OutputCache() {}

  /**
   * The output file {@code path} of {@code store} (which {@link LocalStore#stamps() stamps}) for
   * reading: its held bytes if the file is still the one they were read from, else the file read
   * through the store. Empty if there is no such file (the entry was deleted or never stored).
   */
  static Optional<InputStream> open(LocalStore store, String path) throws IOException {
    FileStamp now;
    try {
      now = store.stamp(path);
    } catch (IOException e) {
      return store.open(path); // the store's own walk gives the precise answer (a link refused, ...)
    }
    if (now == null) {
      return Optional.empty();
    }
    Key key = new Key(store.root(), path);
    Held held = HELD.get(key);
    if (held != null && held.stamp().equals(now)) {
      return Optional.of(new ByteArrayInputStream(held.bytes()));
    }
    Optional<InputStream> opened = store.open(path);
    if (opened.isEmpty() || now.size() > MAX_FILE_BYTES) {
      return opened;
    }
    InputStream in = opened.get();
    byte[] bytes = in.readNBytes((int) now.size() + 1);
    if (bytes.length != now.size()) {
      // another file than the one stamped, or changed while read: read as it is, held only once settled
      return Optional.of(new SequenceInputStream(new ByteArrayInputStream(bytes), in));
    }
    in.close();
    if (settled(now) && now.equals(stampOrNull(store, path))) {
      hold(key, new Held(now, bytes)); // the same unchanged file before and after the read: what was read
    }
    return Optional.of(new ByteArrayInputStream(bytes));
  }

  /** Whether the bytes of {@code path} in {@code store} are held (tests). */
  static boolean holds(LocalStore store, String path) {
    return HELD.containsKey(new Key(store.root(), path));
  }

  /** Whether {@code stamp}'s change time is old enough for its bytes to be held. */
  static boolean settled(FileStamp stamp) {
    return stamp.changed().toInstant().isBefore(Instant.now().minus(settle));
  }

  private static FileStamp stampOrNull(LocalStore store, String path) {
    try {
      return store.stamp(path);
    } catch (IOException e) {
      return null;
    }
  }

  private static void hold(Key key, Held held) {
    if (HELD_BYTES.addAndGet(held.bytes().length) > MAX_HELD_BYTES) {
      HELD.clear();
      HELD_BYTES.set(held.bytes().length);
    }
    Held before = HELD.put(key, held);
    if (before != null) {
      HELD_BYTES.addAndGet(-before.bytes().length);
    }
  }
}
