package io.joblib4j.spi;

import io.joblib4j.spi.support.StorePaths;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One file of an entry to {@link Store#publish}: its name in the entry directory and what writes
 * its bytes. The writer may be called once; it must not close the stream.
 *
 * @param name the file's name, one path segment ({@code output.jl4j})
 * @param writer writes the content
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public record EntryFile(String name, Writer writer) {

  /**
   * Checks that the name is one valid path segment.
   *
   * @param name the file's name, one path segment ({@code output.jl4j})
   * @param writer writes the content
   */
  public EntryFile {
    Objects.requireNonNull(writer, "writer");
    StorePaths.checkSegment(name);
  }

  /**
   * A file with fixed content.
   *
   * @param name the file's name
   * @param content its bytes, copied
   * @return the file
   */
  public static EntryFile of(String name, byte[] content) {
    byte[] copy = content.clone();
    return new EntryFile(name, out -> out.write(copy));
  }

  /** Writes a file's bytes. */
  @FunctionalInterface
  @API(status = API.Status.MAINTAINED, since = "0.1")
  public interface Writer {
    /**
     * Writes the file's bytes to {@code out}, without closing it.
     *
     * @param out the store's stream
     * @throws IOException if writing fails; the entry is then not published
     */
    void writeTo(OutputStream out) throws IOException;
  }
}
