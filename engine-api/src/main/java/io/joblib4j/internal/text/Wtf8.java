package io.joblib4j.internal.text;

import java.nio.charset.StandardCharsets;

/**
 * UTF-8 that also carries unpaired surrogates (the "WTF-8" generalisation: a lone surrogate is
 * encoded as its own 3-byte sequence). For every valid string the bytes are exactly UTF-8; the
 * extension only exists so that a Java string holding a lone surrogate round-trips and hashes
 * differently from {@code "?"}, instead of being silently replaced.
 */
public final class Wtf8 {
  private Wtf8() {}

  /** The bytes of {@code s}. */
  public static byte[] encode(String s) {
    int len = s.length();
    boolean plain = true;
    for (int i = 0; i < len && plain; i++) {
      plain = !Character.isSurrogate(s.charAt(i));
    }
    if (plain) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    byte[] out = new byte[len * 3];
    int n = 0;
    for (int i = 0; i < len; i++) {
      char c = s.charAt(i);
      int cp = c;
      if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
        cp = Character.toCodePoint(c, s.charAt(++i));
      }
      if (cp < 0x80) {
        out[n++] = (byte) cp;
      } else if (cp < 0x800) {
        out[n++] = (byte) (0xC0 | (cp >> 6));
        out[n++] = (byte) (0x80 | (cp & 0x3F));
      } else if (cp < 0x10000) {
        out[n++] = (byte) (0xE0 | (cp >> 12));
        out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        out[n++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        out[n++] = (byte) (0xF0 | (cp >> 18));
        out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        out[n++] = (byte) (0x80 | (cp & 0x3F));
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * The string of {@code b[off, off + len)}; {@code null} if the bytes are not valid (WTF-)8, so that
   * a reader can report corruption instead of inventing replacement characters.
   */
  public static String decode(byte[] b, int off, int len) {
    StringBuilder sb;
    int i = off;
    int end = off + len;
    boolean ascii = true;
    for (int k = off; k < end && ascii; k++) {
      ascii = b[k] >= 0;
    }
    if (ascii) {
      return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }
    sb = new StringBuilder(len);
    while (i < end) {
      int c = b[i] & 0xFF;
      int need;
      int cp;
      if (c < 0x80) {
        sb.append((char) c);
        i++;
        continue;
      } else if (c >= 0xC2 && c < 0xE0) {
        need = 1;
        cp = c & 0x1F;
      } else if (c >= 0xE0 && c < 0xF0) {
        need = 2;
        cp = c & 0x0F;
      } else if (c >= 0xF0 && c < 0xF5) {
        need = 3;
        cp = c & 0x07;
      } else {
        return null;
      }
      if (i + need >= end) {
        return null; // truncated sequence
      }
      for (int k = 1; k <= need; k++) {
        int cc = b[i + k] & 0xFF;
        if ((cc & 0xC0) != 0x80) {
          return null;
        }
        cp = (cp << 6) | (cc & 0x3F);
      }
      int min = need == 1 ? 0x80 : need == 2 ? 0x800 : 0x10000;
      if (cp < min || cp > 0x10FFFF) {
        return null; // overlong or out of range
      }
      sb.appendCodePoint(cp);
      i += need + 1;
    }
    return sb.toString();
  }
}
