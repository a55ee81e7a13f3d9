package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The secret a worker proves itself with: 256 bits from the operating system's secure random
 * source. Read from {@code /dev/urandom} directly where there is one — {@code SecureRandom} would
 * load and initialize the security providers, tens of milliseconds of a first call — and from
 * {@code SecureRandom} elsewhere.
 */
final class WorkerTokens {
  /** Bytes in a token: 256 bits, beyond guessing however many connections one tries. */
  static final int BYTES = 32;
  private static final Path URANDOM = Path.of("/dev/urandom");

  private WorkerTokens() {}

  /** A new token. */
  static byte[] newToken() {
    byte[] token = new byte[BYTES];
    if (Files.isReadable(URANDOM)) {
      try (InputStream in = Files.newInputStream(URANDOM)) {
        if (in.readNBytes(token, 0, BYTES) == BYTES) {
          return token;
        }
      } catch (IOException e) {
        // fall through to SecureRandom
      }
    }
    new SecureRandom().nextBytes(token);
    return token;
  }

  /** The token as the worker's environment carries it. */
  static String encode(byte[] token) {
    return HexFormat.of().formatHex(token);
  }

  /** The token from the worker's environment; throws IllegalArgumentException if it is not one. */
  static byte[] decode(String text) {
    byte[] token = HexFormat.of().parseHex(text);
    if (token.length != BYTES) {
      throw new IllegalArgumentException("a worker token has " + BYTES + " bytes, not " + token.length);
    }
    return token;
  }
}
