package io.joblib4j;

import io.joblib4j.spi.Compressor;
import io.joblib4j.spi.Compressors;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How {@link Joblib#dump} compresses, with joblib's rules for its {@code compress} argument:
 *
 * <table>
 *   <caption>compress values</caption>
 *   <tr><th>value</th><th>joblib</th><th>result</th></tr>
 *   <tr><td>{@link #none()}, {@code of(false)}, {@code of(0)}</td><td>{@code 0}/{@code False}</td>
 *       <td>uncompressed, unless the file extension names a codec (then that codec, default level)</td></tr>
 *   <tr><td>{@code of(true)}</td><td>{@code True}</td>
 *       <td>zlib, level 3; a known extension overrides the codec</td></tr>
 *   <tr><td>{@code of(1..9)}</td><td>{@code 3}</td>
 *       <td>zlib at that level; a known extension overrides the codec, keeping the level</td></tr>
 *   <tr><td>{@code of("gzip")}</td><td>{@code "gzip"}</td>
 *       <td>that codec at its default level; the extension is ignored</td></tr>
 *   <tr><td>{@code of("gzip", 6)}</td><td>{@code ("gzip", 6)}</td>
 *       <td>exactly that; the extension is ignored; level 0 writes uncompressed</td></tr>
 * </table>
 *
 * <pre>{@code
 * Joblib.dump(model, Path.of("model.jl4j.gz"));                 // gzip, from the extension
 * Joblib.dump(model, Path.of("model.jl4j"), Compress.of(3));     // zlib level 3
 * Joblib.dump(model, Path.of("model.jl4j"), Compress.of("zstd", 9));
 * Compress fromConfig = Compress.parse("lz4");                   // "zstd:3", "true", "0", ...
 * }</pre>
 *
 * <p>Bad values fail with an {@link IllegalArgumentException} whose message says what is allowed.
 * Instances are immutable and compare by value.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class Compress implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private static final String DEFAULT_METHOD = "zlib";
  private static final Compress NONE = new Compress(Kind.NONE_UNLESS_EXTENSION, null, 0);

  private enum Kind {
    NONE_UNLESS_EXTENSION,
    ZLIB_UNLESS_EXTENSION,
    EXACT
  }

  /** Whether a file name's extension may pick the codec, and which codec applies otherwise. */
  private final Kind kind;
  /** The codec's name for an exact setting, else null. */
  private final String method;
  /** The level, 1 to 9; 0 none; -1 the codec's default. */
  private final int level;

  private Compress(Kind kind, String method, int level) {
    this.kind = kind;
    this.method = method;
    this.level = level;
  }

  /**
   * No compression, unless the file's extension names a codec (joblib {@code compress=0}).
   *
   * @return the setting
   */
  public static Compress none() {
    return NONE;
  }

  /**
   * {@code true}: zlib level 3 (a known extension overrides the codec); {@code false}: {@link
   * #none()}.
   *
   * @param compress whether to compress
   * @return the setting
   */
  public static Compress of(boolean compress) {
    return compress ? new Compress(Kind.ZLIB_UNLESS_EXTENSION, null, -1) : NONE;
  }

  /**
   * A level: 0 is {@link #none()}; 1 to 9 is zlib at that level, unless a known extension chooses
   * another codec (used at this level).
   *
   * @param level 0 to 9
   * @return the setting
   * @throws IllegalArgumentException unless {@code 0 <= level <= 9}
   */
  public static Compress of(int level) {
    checkLevel(level);
    return level == 0 ? NONE : new Compress(Kind.ZLIB_UNLESS_EXTENSION, null, level);
  }

  /**
   * The codec called {@code method} at its default level, whatever the file extension.
   *
   * @param method a codec's name, e.g. {@code "zstd"}
   * @return the setting
   * @throws IllegalArgumentException if no codec of that name is registered
   */
  public static Compress of(String method) {
    Compressor c = Compressors.get(Objects.requireNonNull(method, "compression method"));
    return new Compress(Kind.EXACT, c.name(), c.defaultLevel());
  }

  /**
   * Exactly {@code method} at {@code level}, whatever the file extension; level 0 writes
   * uncompressed (as joblib's {@code (method, 0)}).
   *
   * @param method a codec's name
   * @param level 1 to 9, or 0 for none
   * @return the setting
   * @throws IllegalArgumentException for an unknown codec or a level outside 0..9
   */
  public static Compress of(String method, int level) {
    Compressor c = Compressors.get(Objects.requireNonNull(method, "compression method"));
    checkLevel(level);
    return new Compress(Kind.EXACT, c.name(), level);
  }

  /**
   * Parses a configuration string: {@code "none"}, {@code "false"}, {@code "true"}, a level
   * {@code "0"}..{@code "9"}, a codec name {@code "zstd"}, or {@code "name:level"} such as {@code
   * "zstd:3"}.
   *
   * @param spec {@code "none"}, {@code "3"}, {@code "gzip"}, {@code "zstd:3"}, ...
   * @return the setting
   * @throws IllegalArgumentException for anything else
   */
  public static Compress parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("compress spec must not be empty; use e.g. \"none\", \"3\","
          + " \"gzip\" or \"zstd:3\"");
    }
    String s = spec.trim().toLowerCase(Locale.ROOT);
    switch (s) {
      case "none":
      case "false":
        return NONE;
      case "true":
        return of(true);
      default:
        break;
    }
    if (s.chars().allMatch(Character::isDigit)) {
      return of(parseLevel(s, spec));
    }
    int colon = s.indexOf(':');
    if (colon < 0) {
      return of(s);
    }
    return of(s.substring(0, colon), parseLevel(s.substring(colon + 1), spec));
  }

  private static int parseLevel(String digits, String spec) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Non valid compress level given: \"" + spec
          + "\"; use a level 0..9, e.g. \"zstd:3\"");
    }
  }

  private static void checkLevel(int level) {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException("Non valid compress level given: \"" + level
          + "\"; possible values are 0..9 (0 means no compression)");
    }
  }

  /**
   * The codec and level this setting picks for a file called {@code fileName}, as {@link
   * Joblib#dump} applies it: a known extension ({@code .zst}, {@code .gz}, ...) picks its codec unless
   * a method was named.
   *
   * @param fileName the file's name, or {@code null} for a stream
   * @return the codec and level, or empty for no compression
   */
  public Optional<Choice> resolve(String fileName) {
    Optional<Compressor> byExtension =
        fileName == null ? Optional.empty() : Compressors.forFileName(fileName);
    switch (kind) {
      case NONE_UNLESS_EXTENSION:
        return byExtension.map(c -> new Choice(c, c.defaultLevel()));
      case ZLIB_UNLESS_EXTENSION: {
        Compressor c = byExtension.orElseGet(() -> Compressors.get(DEFAULT_METHOD));
        return Optional.of(new Choice(c, level < 0 ? c.defaultLevel() : level));
      }
      default:
        return level == 0 ? Optional.empty() : Optional.of(new Choice(Compressors.get(method), level));
    }
  }

  /**
   * A resolved codec and level.
   *
   * @param compressor the codec
   * @param level its level, 1 to 9
   */
  @API(status = API.Status.MAINTAINED, since = "0.1")
  public record Choice(Compressor compressor, int level) {}

  @Override
  public boolean equals(Object o) {
    return o instanceof Compress && ((Compress) o).kind == kind
        && Objects.equals(((Compress) o).method, method) && ((Compress) o).level == level;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, method, level);
  }

  @Override
  public String toString() {
    switch (kind) {
      case NONE_UNLESS_EXTENSION:
        return "Compress.none()";
      case ZLIB_UNLESS_EXTENSION:
        return level < 0 ? "Compress.of(true)" : "Compress.of(" + level + ")";
      default:
        return "Compress.of(\"" + method + "\", " + level + ")";
    }
  }
}
