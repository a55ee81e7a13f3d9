package io.joblib4j.cli;

import io.joblib4j.Memory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Caches written by real memoized calls, for the commands to look at. */
final class Caches {
  private Caches() {}

  /** Fns.square of 1..4, Fns.greet of two names, Fns.signal(1000): 7 entries in 3 functions. */
  static void fill(Memory memory) {
    var square = memory.cache(Fns::square);
    for (int i = 1; i <= 4; i++) {
      square.apply(i);
    }
    var greet = memory.cache(Fns::greet);
    greet.apply("ada", 2);
    greet.apply("bob", 2);
    memory.cache(Fns::signal).apply(1000);
  }

  /** A quiet Memory (no "[Memory] Calling ..." lines in the build log) over a local folder. */
  static Memory at(Path folder) {
    return Memory.builder(folder).verbose(0).build();
  }

  /** A quiet Memory over a store. */
  static Memory at(io.joblib4j.spi.Store store) {
    return Memory.builder(store).verbose(0).build();
  }

  /** Flips a byte in the middle of one entry's output (size unchanged: only its checksum tells). */
  static Path damageOneEntry(Path cache, String function) {
    try (Stream<Path> s = Files.walk(cache)) {
      Path out = s.filter(p -> p.getFileName().toString().equals("output.jl4j"))
          .filter(p -> p.getParent().getParent().getFileName().toString().contains(function + "-"))
          .findFirst().orElseThrow();
      byte[] b = Files.readAllBytes(out);
      b[b.length / 2] ^= 0x5a;
      Files.write(out, b);
      return out.getParent();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What a writer that died two hours ago leaves at the root of a local cache. */
  static Path abandonTemporary(Path cache) {
    try {
      Path tmp = Files.createDirectories(cache.resolve(".tmp-Fns.square-dead-writer"));
      Files.write(tmp.resolve("output.jl4j"), new byte[100]);
      FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(2)));
      Files.setLastModifiedTime(tmp.resolve("output.jl4j"), old);
      Files.setLastModifiedTime(tmp, old);
      return tmp;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every file and folder under {@code root}, hidden ones included: its type, size and modification
   * time to the nanosecond (a folder's changes when anything in it is added, removed or renamed).
   */
  static Map<String, String> snapshot(Path root) {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.toList()) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        out.put(root.relativize(p).toString(), (a.isDirectory() ? "dir " : "file " + a.size() + " ")
            + a.lastModifiedTime().to(TimeUnit.NANOSECONDS));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * Makes every folder under {@code root} (and it) r-x for everyone (or rwx for its owner again),
   * as a cache this user may only read. (Root writes anyway: the tests also compare snapshots.)
   */
  static void setWritable(Path root, boolean writable) {
    Set<PosixFilePermission> perms = PosixFilePermissions.fromString(writable ? "rwxr-xr-x" : "r-xr-xr-x");
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isDirectory).toList()) {
        Files.setPosixFilePermissions(p, perms);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
