package io.joblib4j;

import io.joblib4j.internal.persist.ClassNames;
import org.apiguardian.api.API;

/**
 * {@link Joblib#load} met a class that is not on the load allow-list, and refused it before
 * creating any instance of it. The message names the class and the two ways to accept it:
 * {@code LoadOptions.builder().allow(TheClass.class)} (or {@code allowPackages("com.acme")}), or,
 * for files you produced yourself, {@code LoadOptions.trusted()}.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class UnsafeClassException extends JoblibException {
  private static final long serialVersionUID = 1L;

  /** The refused class. */
  private final String className;

  /**
   * A refused class.
   *
   * @param source the file, or {@code "stream"}
   * @param className the binary name of the refused class as written in the file (an array's
   *     descriptor, such as {@code [Lcom.acme.X;}, is allowed by allowing its element class)
   */
  public UnsafeClassException(String source, String className) {
    super(source + ": refused to load class " + className + ", which is not on the allow-list. "
        + "If you trust this file, allow it with LoadOptions.builder().allow(" + simple(className)
        + ".class) or .allowPackages(\"" + pkg(className) + "\"), or load with LoadOptions.trusted()");
    this.className = className;
  }

  /**
   * The binary name of the refused class, as written in the file.
   *
   * @return the class name
   */
  public String className() {
    return className;
  }

  private static String simple(String name) {
    String element = ClassNames.elementName(name);
    String n = element.substring(element.lastIndexOf('.') + 1);
    return n.replace('$', '.');
  }

  private static String pkg(String name) {
    String element = ClassNames.elementName(name);
    int dot = element.lastIndexOf('.');
    return dot < 0 ? element : element.substring(0, dot);
  }
}
