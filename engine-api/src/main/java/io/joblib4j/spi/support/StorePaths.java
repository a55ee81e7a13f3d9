package io.joblib4j.spi.support;

import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The path rules every {@link io.joblib4j.spi.Store} enforces, so that no function name or
 * argument can make a path outside the store's root: relative, {@code /}-separated, each segment {@code
 * [A-Za-z0-9._-]+}, never {@code .} or {@code ..}, at most 255 characters per segment.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class StorePaths {
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]{1,255}");

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
    for (String segment : path.split("/", -1)) {
      checkSegment(segment, path);
    }
    return path;
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
    if (segment == null || !SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
      throw new IllegalArgumentException("invalid store path \"" + path + "\": segments must be 1-255 of"
          + " [A-Za-z0-9._-], not \".\" or \"..\", separated by single \"/\", with no leading \"/\"");
    }
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
