package io.joblib4j.spi.support;

import org.apiguardian.api.API;

/**
 * The path rules every {@link io.joblib4j.spi.Store} enforces, so that no function name or
 * argument can make a path outside the store's root: relative, {@code /}-separated, each segment {@code
 * [A-Za-z0-9._-]+}, never {@code .} or {@code ..}, at most 255 characters per segment.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class StorePaths {
  private StorePaths() {}

  /**
   * Returns {@code path} if it follows the rules ({@code ""} is the root), else throws.
   *
   * @param path a store path
   * @return {@code path}
   */
  public static String check(String path) {
    if (path == null) {
      throw new IllegalArgumentException("store path is null");
    }
    if (path.isEmpty()) {
      return path;
    }
    // by hand, not split and a regex per segment: every cache hit checks its paths
    int start = 0;
    for (int i = 0; i <= path.length(); i++) {
      if (i == path.length() || path.charAt(i) == '/') {
        if (!validSegment(path, start, i)) {
          throw invalid(path);
        }
        start = i + 1;
      } else if (!allowed(path.charAt(i))) {
        throw invalid(path);
      }
    }
    return path;
  }

  /** Whether {@code path[start, end)} is 1-255 allowed characters, and not {@code .} or {@code ..}. */
  private static boolean validSegment(String path, int start, int end) {
    int n = end - start;
    if (n < 1 || n > 255) {
      return false;
    }
    return !(path.charAt(start) == '.' && (n == 1 || n == 2 && path.charAt(start + 1) == '.'));
  }

  private static boolean allowed(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-';
  }

  private static IllegalArgumentException invalid(String path) {
    return new IllegalArgumentException("invalid store path \"" + path + "\": segments must be 1-255 of"
        + " [A-Za-z0-9._-], not \".\" or \"..\", separated by single \"/\", with no leading \"/\"");
  }

  /**
   * Returns {@code segment} if it is one valid path segment, else throws.
   *
   * @param segment one path segment
   * @return {@code segment}
   */
  public static String checkSegment(String segment) {
    return checkSegment(segment, segment);
  }

  private static String checkSegment(String segment, String path) {
    if (segment == null || segment.isEmpty() || segment.indexOf('/') >= 0) {
      throw invalid(String.valueOf(path));
    }
    check(segment);
    return segment;
  }

  /**
   * {@code a/b} for non-empty parts, skipping empty ones.
   *
   * @param parts path parts, empty ones skipped
   * @return the joined path
   */
  public static String join(String... parts) {
    StringBuilder sb = new StringBuilder();
    for (String p : parts) {
      if (p == null || p.isEmpty()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append('/');
      }
      sb.append(p);
    }
    return check(sb.toString());
  }
}
