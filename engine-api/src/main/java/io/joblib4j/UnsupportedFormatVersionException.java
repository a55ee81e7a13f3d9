package io.joblib4j;

import org.apiguardian.api.API;

/**
 * The file is a joblib4j container, but written in a format version this version of joblib4j cannot
 * read (usually: written by a newer joblib4j). The data is probably fine; upgrade joblib4j to read
 * it.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class UnsupportedFormatVersionException extends JoblibException {
  private static final long serialVersionUID = 1L;

  /** The format version found. */
  private final int version;

  /**
   * A container of a newer format version.
   *
   * @param source the file, or {@code "stream"}
   * @param version the version found
   * @param supported the newest version this joblib4j reads
   */
  public UnsupportedFormatVersionException(String source, int version, int supported) {
    super(source + ": written in joblib4j container format version " + version
        + ", but this joblib4j reads versions up to " + supported + "; upgrade joblib4j to load it");
    this.version = version;
  }

  /**
   * The major format version found in the file.
   *
   * @return the version
   */
  public int version() {
    return version;
  }
}
