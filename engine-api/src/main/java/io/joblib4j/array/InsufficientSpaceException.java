package io.joblib4j.array;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A memory-mapped array's file does not fit on its disk: thrown by {@link NDArray#createMapped}
 * when the file is created, so that filling the array later cannot fault (a write to a page of a
 * mapped file the disk has no room for kills the access with a JVM-internal error, numpy's "Bus
 * error"). Free space on that file system, or create the array on another one.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class InsufficientSpaceException extends UncheckedIOException {
  private static final long serialVersionUID = 1L;
  /** The array's file. */
  private final String file;
  /** The file system holding it. */
  private final String fileSystem;
  /** The array's size in bytes. */
  private final long requiredBytes;
  /** The free bytes the file system had, or -1. */
  private final long usableBytes;

  /**
   * @param file the array's file
   * @param fileSystem the file system holding it, as the JDK describes it ({@code /dev/shm (tmpfs)})
   * @param requiredBytes the array's size
   * @param usableBytes what the file system had free, or -1 if it ran out while the file was reserved
   * @param cause the I/O error, if the file system reported one
   */
  public InsufficientSpaceException(Path file, String fileSystem, long requiredBytes, long usableBytes, IOException cause) {
    super("cannot create the mapped array " + file + " (" + requiredBytes + " bytes): the file system holding it ("
        + fileSystem + ") " + (usableBytes >= 0 ? "has only " + usableBytes + " bytes free"
            : "ran out of space while the file was reserved") + ". Free space there, or create the array on"
        + " another disk (arrays shared with child JVMs: Parallel's tempFolder(...))",
        cause != null ? cause : new IOException("No space left on device"));
    this.file = file.toString();
    this.fileSystem = fileSystem;
    this.requiredBytes = requiredBytes;
    this.usableBytes = usableBytes;
  }

  /**
   * The array's file.
   *
   * @return its path
   */
  public Path file() {
    return Path.of(file);
  }

  /**
   * The file system that lacks the space.
   *
   * @return its description, such as {@code /dev/shm (tmpfs)}
   */
  public String fileSystem() {
    return fileSystem;
  }

  /**
   * The array's size.
   *
   * @return bytes
   */
  public long requiredBytes() {
    return requiredBytes;
  }

  /**
   * What the file system had free when the file was created.
   *
   * @return bytes, or -1 if it ran out while the file was being reserved
   */
  public long usableBytes() {
    return usableBytes;
  }
}
