package io.joblib4j.spi.support;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Byte sizes written as joblib writes them: {@code "500"}, {@code "64K"}, {@code "1M"}, {@code
 * "10G"} (powers of 1024; an optional trailing {@code B} or {@code iB} is accepted). Backends and
 * stores parse their size options with it, so that every option of joblib4j reads sizes alike.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class ByteSizes {
  private static final Pattern SIZE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]?)(?:I?B)?", Pattern.CASE_INSENSITIVE);

  private ByteSizes() {}

  /**
   * The number of bytes {@code text} denotes.
   *
   * @param text a size, e.g. {@code "64K"}
   * @return the size in bytes
   */
  public static long parse(String text) {
    Matcher m = SIZE.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "not a byte size: \"" + text + "\" (write e.g. \"1048576\", \"64K\", \"1M\" or \"10G\")");
    }
    double number = Double.parseDouble(m.group(1));
    long unit = switch (m.group(2).toUpperCase(Locale.ROOT)) {
      case "K" -> 1L << 10;
      case "M" -> 1L << 20;
      case "G" -> 1L << 30;
      case "T" -> 1L << 40;
      default -> 1L;
    };
    double bytes = number * unit;
    if (bytes > Long.MAX_VALUE) {
      throw new IllegalArgumentException("byte size too large: \"" + text + "\"");
    }
    return (long) bytes;
  }
}
