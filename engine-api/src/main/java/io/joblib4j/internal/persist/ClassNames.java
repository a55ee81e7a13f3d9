package io.joblib4j.internal.persist;

/** Binary class names as they appear in files, where arrays are descriptors like {@code [Lcom.acme.X;}. */
public final class ClassNames {
  private ClassNames() {}

  /**
   * The element class of an array of objects ({@code [[Lcom.acme.X;} is {@code com.acme.X}); any
   * other name, a primitive array's descriptor included, as it is.
   *
   * @param name a binary class name or array descriptor
   * @return the element class's binary name, or {@code name}
   */
  public static String elementName(String name) {
    int dims = 0;
    while (dims < name.length() && name.charAt(dims) == '[') {
      dims++;
    }
    if (dims > 0 && name.length() > dims + 1 && name.charAt(dims) == 'L' && name.endsWith(";")) {
      return name.substring(dims + 1, name.length() - 1);
    }
    return name;
  }
}
