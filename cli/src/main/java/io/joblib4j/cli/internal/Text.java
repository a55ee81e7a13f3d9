package io.joblib4j.cli.internal;

import io.joblib4j.cli.Main;
import io.joblib4j.spi.support.ByteSizes;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sizes, ages and times as people type and read them, and plain aligned tables. */
public final class Text {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final Pattern AGE = Pattern.compile("(\\d+)\\s*(s|m|h|d|w)", Pattern.CASE_INSENSITIVE);

  private Text() {}

  /** {@code 1536} → {@code 1.5K}; binary units as {@code du -h}. */
  public static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + "B";
    }
    String units = "KMGTPE";
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length() - 1) {
      v /= 1024;
      u++;
    }
    return (v >= 10 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v)) + units.charAt(u);
  }

  public static String time(Instant t) {
    return t == null ? "-" : TIME.format(t);
  }

  public static String iso(Instant t) {
    return t == null ? null : t.toString();
  }

  /** {@code 10G}, {@code 500M}, {@code 1024}: bytes; a usage error otherwise. */
  public static long parseSize(String option, String text) {
    try {
      return ByteSizes.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CliException(Main.USAGE, option + " " + text + ": not a size (" + e.getMessage() + "); e.g. 10G, 500M, 1024");
    }
  }

  /** {@code 30d}, {@code 12h}, {@code 90m}, {@code 45s}, {@code 2w}, {@code 1d12h}, or ISO-8601 ({@code PT36H}). */
  public static Duration parseAge(String option, String text) {
    String t = text.trim();
    if (t.toUpperCase(Locale.ROOT).startsWith("P")) {
      try {
        return Duration.parse(t);
      } catch (DateTimeParseException e) {
        throw new CliException(Main.USAGE, option + " " + text + ": not an ISO-8601 duration");
      }
    }
    Matcher m = AGE.matcher(t);
    Duration d = Duration.ZERO;
    int end = 0;
    while (m.find() && m.start() == end) {
      long n = Long.parseLong(m.group(1));
      d = d.plus(switch (m.group(2).toLowerCase(Locale.ROOT)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofDays(7 * n);
      });
      end = m.end();
    }
    if (end == 0 || end != t.length()) {
      throw new CliException(Main.USAGE, option + " " + text + ": not an age; e.g. 30d, 12h, 90m, 1d12h");
    }
    return d;
  }

  /** A table whose columns are as wide as their widest cell; numbers right-aligned. */
  public static final class Table {
    private final List<String[]> rows = new ArrayList<>();
    private final boolean[] right;

    public Table(String... header) {
      rows.add(header);
      right = new boolean[header.length];
    }

    public Table right(int... columns) {
      for (int c : columns) {
        right[c] = true;
      }
      return this;
    }

    public Table row(Object... cells) {
      String[] r = new String[cells.length];
      for (int i = 0; i < cells.length; i++) {
        r[i] = String.valueOf(cells[i]);
      }
      rows.add(r);
      return this;
    }

    public int size() {
      return rows.size() - 1;
    }

    public void print(PrintStream out) {
      int[] width = new int[right.length];
      for (String[] r : rows) {
        for (int i = 0; i < r.length; i++) {
          width[i] = Math.max(width[i], r[i].length());
        }
      }
      StringBuilder sb = new StringBuilder();
      for (String[] r : rows) {
        sb.setLength(0);
        for (int i = 0; i < r.length; i++) {
          boolean last = i == r.length - 1;
          String cell = r[i];
          if (right[i]) {
            sb.append(" ".repeat(width[i] - cell.length())).append(cell);
          } else {
            sb.append(cell);
            if (!last) {
              sb.append(" ".repeat(width[i] - cell.length()));
            }
          }
          if (!last) {
            sb.append("  ");
          }
        }
        out.println(sb);
      }
    }
  }
}
