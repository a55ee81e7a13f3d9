package io.joblib4j.internal.processes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * A digest of the settings workers are made with (the JDK, class path jars, options, environment)
 * that names what may only be reused under the same settings: parked workers' sockets ({@link
 * WarmWorkers}) and class-data-sharing archives ({@link WorkerCds}).
 *
 * <p>Two 64-bit multiplicative lanes (FNV-1a, and a golden-ratio multiply with an xor-shift), not
 * SHA-256: a fresh JVM runs SHA-256 interpreted, some 3 ms per KiB of input (10 ms for one jar's
 * and a shell's environment, 80 ms for a spark-submit class path of 250 jars) on a thread the
 * first call's adoption of parked workers waits for; these lanes take 0.1 ms per KiB. It defends
 * against no one and need not: what it names lives in folders only this user may enter. It tells
 * different settings apart, which 96 bits do not fail to by accident.
 */
final class SettingsDigest {
  private static final int SEPARATOR = 0x100; // not a byte: ("ab", "c") and ("a", "bc") differ
  private long fnv = 0xcbf29ce484222325L;
  private long golden = 0x9e3779b97f4a7c15L;

  /** Adds {@code s} as one item. */
  SettingsDigest add(String s) {
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      mix(b & 0xff);
    }
    mix(SEPARATOR);
    return this;
  }

  /** Adds a jar by what identifies its content without reading it: its path, size and modification time. */
  SettingsDigest addJar(Path jar) throws IOException {
    return add(jar + ":" + Files.size(jar) + ":" + Files.getLastModifiedTime(jar).toMillis());
  }

  private void mix(int x) {
    fnv = (fnv ^ x) * 0x100000001b3L;
    golden = (golden ^ x) * 0xff51afd7ed558ccdL;
    golden ^= golden >>> 31;
  }

  /** The digest as 24 lowercase hex digits (96 bits), short enough for a socket's path. */
  String hex() {
    HexFormat h = HexFormat.of();
    return h.toHexDigits(fnv) + h.toHexDigits((int) (golden >>> 32));
  }
}
