package io.joblib4j;

import org.apiguardian.api.API;

/**
 * A file or stream given to {@link Joblib#load} is not a valid joblib4j container: bad magic bytes,
 * a truncated record, a checksum mismatch (of mapped array data too), a length over what follows,
 * an unknown record, a malformed value; or it would take more than {@link
 * LoadOptions#maxHeapBytes()} or {@link LoadOptions#maxDecompressedBytes()}. The message names the
 * source (the file, or {@code "stream"}), what was wrong and, for a limit, how to raise it. Only bad
 * data is reported this way: an error of joblib4j itself, or the JVM running out of memory,
 * surfaces as what it is.
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
   * Bad data found in {@code source}.
   *
   * @param source the file, or {@code "stream"}
   * @param problem what was wrong, and what to do if there is something to do
   */
  public CorruptFileException(String source, String problem) {
    super(source + ": " + problem);
    this.source = source;
  }

  /**
   * Bad data found in {@code source}, as {@code cause} (a codec's exception) reported it.
   *
   * @param source the file, or {@code "stream"}
   * @param problem what was wrong
   * @param cause what reported it
   */
  public CorruptFileException(String source, String problem, Throwable cause) {
    super(source + ": " + problem, cause);
    this.source = source;
  }

  /**
   * Where the problem was found.
   *
   * @return the file, or {@code "stream"} when loading from an InputStream
   */
  public String source() {
    return source;
  }
}
