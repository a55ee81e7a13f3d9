package io.joblib4j.spi.support;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.apiguardian.api.API;

/**
 * An I/O failure in words a user can act on. {@link AccessDeniedException}'s own message is only the
 * path; a report that says "permission denied" tells the user to run as the cache's owner, where a
 * bare path looks like a damaged file.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class IoCauses {
  private IoCauses() {}

  /**
   * What went wrong, without the stack: "permission denied", "no such file", or the failure's message
   * (a Hadoop {@code AccessControlException} says "Permission denied" in its own).
   *
   * @param failure what was thrown
   * @return a short description
   */
  public static String describe(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException) {
        return "permission denied";
      }
      if (t instanceof NoSuchFileException) {
        return "no such file";
      }
    }
    Throwable t = failure instanceof UncheckedIOException && failure.getCause() != null ? failure.getCause() : failure;
    if (t instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }

  /**
   * Whether {@code failure} (or a cause) is a refusal of access: a local {@link AccessDeniedException}
   * or a Hadoop {@code AccessControlException}, recognized by name so that this needs no Hadoop.
   *
   * @param failure what was thrown
   * @return whether access was denied
   */
  public static boolean accessDenied(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException || t.getClass().getName().endsWith("AccessControlException")) {
        return true;
      }
    }
    return false;
  }
}
