package io.joblib4j.internal.persist.npy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser of the Python literals a {@code .npy} header is made of: a dict of string keys,
 * whose values are strings, {@code True}/{@code False}/{@code None}, integers and tuples or lists of
 * them (a structured dtype's descr is a list of tuples). Nothing is evaluated: anything else (a
 * name, a call, an operator, a float) is a {@link BadLiteral}. Depth and the number of items are
 * capped, and the text is at most the header's length, so hostile headers cost little.
 *
 * <p>Values: {@code String}, {@code Boolean}, {@code Long}, {@code List<Object>} for tuples and
 * lists ({@link Tuple} for a tuple, to tell {@code (3,)} from {@code [3]}), {@code Map<String,
 * Object>} for a dict, {@link #NONE} for {@code None}.
 */
final class PyLiteral {
  /** Python's {@code None}. */
  static final Object NONE = new Object() {
    @Override
    public String toString() {
      return "None";
    }
  };

  private static final int MAX_DEPTH = 16;
  private static final int MAX_ITEMS = 4096;

  private final String text;
  private int pos;
  private int items;

  private PyLiteral(String text) {
    this.text = text;
  }

  /** A tuple's items (a list that remembers it was written with parentheses). */
  static final class Tuple extends ArrayList<Object> {
    private static final long serialVersionUID = 1L;
  }

  /** The text is not a literal this parser reads; the message says where and what was wrong. */
  static final class BadLiteral extends Exception {
    private static final long serialVersionUID = 1L;

    BadLiteral(String message) {
      super(message);
    }
  }

  /** Parses {@code text}, which must hold one dict literal and nothing but whitespace around it. */
  static Map<String, Object> parseDict(String text) throws BadLiteral {
    PyLiteral p = new PyLiteral(text);
    p.skipSpace();
    if (p.peek() != '{') {
      throw p.bad("expected a dict starting with '{'");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> d = (Map<String, Object>) p.value(0);
    p.skipSpace();
    if (p.pos != text.length()) {
      throw p.bad("unexpected text after the dict");
    }
    return d;
  }

  private Object value(int depth) throws BadLiteral {
    if (depth > MAX_DEPTH) {
      throw bad("nested deeper than " + MAX_DEPTH + " levels");
    }
    if (++items > MAX_ITEMS) {
      throw bad("more than " + MAX_ITEMS + " items");
    }
    skipSpace();
    char c = peek();
    switch (c) {
      case '{':
        return dict(depth);
      case '(':
        return sequence(depth, ')', new Tuple());
      case '[':
        return sequence(depth, ']', new ArrayList<>());
      case '\'':
      case '"':
        return string();
      default:
        if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
          return integer();
        }
        if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_') {
          return keyword();
        }
        throw bad(pos >= text.length() ? "the text ends where a value was expected" : "unexpected character");
    }
  }

  private Map<String, Object> dict(int depth) throws BadLiteral {
    pos++; // '{'
    Map<String, Object> d = new LinkedHashMap<>();
    skipSpace();
    while (peek() != '}') {
      skipSpace();
      if (peek() != '\'' && peek() != '"') {
        throw bad("expected a string key");
      }
      String key = string();
      skipSpace();
      expect(':');
      Object v = value(depth + 1);
      if (d.putIfAbsent(key, v) != null) {
        throw bad("the key '" + key + "' appears twice");
      }
      skipSpace();
      if (peek() == ',') {
        pos++;
        skipSpace();
      } else if (peek() != '}') {
        throw bad("expected ',' or '}'");
      }
    }
    pos++;
    return Collections.unmodifiableMap(d);
  }

  private List<Object> sequence(int depth, char close, List<Object> out) throws BadLiteral {
    pos++;
    skipSpace();
    boolean comma = false;
    while (peek() != close) {
      out.add(value(depth + 1));
      skipSpace();
      comma = false;
      if (peek() == ',') {
        pos++;
        comma = true;
        skipSpace();
      } else if (peek() != close) {
        throw bad("expected ',' or '" + close + "'");
      }
    }
    pos++;
    if (close == ')' && out.size() == 1 && !comma) {
      // (3) is the integer 3 in Python, not a tuple: a header never means that
      throw bad("a one-item tuple needs a trailing comma");
    }
    return out;
  }

  private String string() throws BadLiteral {
    char quote = text.charAt(pos++);
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw bad("the string is not closed");
      }
      char c = text.charAt(pos++);
      if (c == quote) {
        return sb.toString();
      }
      if (c == '\n' || c == '\r') {
        throw bad("a line break inside a string");
      }
      if (c == '\\') {
        if (pos >= text.length()) {
          throw bad("the string is not closed");
        }
        char e = text.charAt(pos++);
        if (e == '\\' || e == '\'' || e == '"') {
          sb.append(e);
        } else {
          throw bad("an escape other than \\\\, \\' or \\\" in a string");
        }
      } else {
        sb.append(c);
      }
    }
  }

  private Long integer() throws BadLiteral {
    int start = pos;
    if (peek() == '-' || peek() == '+') {
      pos++;
    }
    int digits = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    if (pos == digits) {
      throw bad("a sign without digits");
    }
    if (pos - digits > 19) {
      throw bad("an integer too large");
    }
    long v;
    try {
      v = Long.parseLong(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw bad("an integer too large");
    }
    if (pos < text.length() && (text.charAt(pos) == 'L' || text.charAt(pos) == 'l')) {
      pos++; // Python 2's long suffix, in headers numpy wrote under Python 2
    }
    if (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
      throw bad("not an integer");
    }
    return v;
  }

  private Object keyword() throws BadLiteral {
    int start = pos;
    while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
    }
    String word = text.substring(start, pos);
    switch (word) {
      case "True":
        return Boolean.TRUE;
      case "False":
        return Boolean.FALSE;
      case "None":
        return NONE;
      default:
        pos = start;
        throw bad("the name '" + (word.length() > 40 ? word.substring(0, 40) + "..." : word)
            + "' (only literals are read, never evaluated)");
    }
  }

  private void expect(char c) throws BadLiteral {
    if (peek() != c) {
      throw bad("expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipSpace() {
    while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t'
        || text.charAt(pos) == '\n' || text.charAt(pos) == '\r')) {
      pos++;
    }
  }

  private BadLiteral bad(String what) {
    int from = Math.max(0, pos - 20);
    int to = Math.min(text.length(), pos + 20);
    String near = text.substring(from, to).replaceAll("[^\\x20-\\x7e]", "?");
    return new BadLiteral(what + " at character " + pos + " (near \"" + near + "\")");
  }
}
