package io.joblib4j;

import org.apiguardian.api.API;

/**
 * A file or stream given to {@link Joblib#load} is not a valid joblib4j container: bad magic bytes,
 * a truncated record, a checksum mismatch, a length over a limit, an unknown record, a malformed
 * value. The message names the source (the file, or {@code "stream"}) and what was wrong.
 *
 * <p>A cache that finds one of these should treat the entry as missing and recompute it: the bytes
 * were never turned into a value.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class CorruptFileException extends JoblibException {
  private static final long serialVersionUID = 1L;

  /** The file, or {@code "stream"}. */
  private final String source;

  /**
   * A container that cannot be read.
   *
   * @param source the file, or {@code "stream"}
   * @param problem what was wrong, in words
   */
  public CorruptFileException(String source, String problem) {
    super(source + ": " + problem);
    this.source = source;
  }

  /**
   * A container that cannot be read, for {@code cause}.
   *
   * @param source the file, or {@code "stream"}
   * @param problem what was wrong, in words
   * @param cause the error that showed it
   */
  public CorruptFileException(String source, String problem, Throwable cause) {
    super(source + ": " + problem, cause);
    this.source = source;
  }

  /**
   * The file the problem was found in, or {@code "stream"} when loading from an InputStream.
   *
   * @return the source
   */
  public String source() {
    return source;
  }
}
