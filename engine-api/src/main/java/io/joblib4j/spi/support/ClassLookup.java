package io.joblib4j.spi.support;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Whether a class is on a class path, asked without initializing or linking anything: how a backend
 * or store tells which of Spark's or Hadoop's flavours a JVM holds (a Connect client, a classic
 * session, an executor) without naming their classes in its own code.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class ClassLookup {
  private ClassLookup() {}

  /**
   * Whether {@code loader} can find {@code name}.
   *
   * @param name a binary class name
   * @param loader where to look
   * @return true if the class is there and its file could be read
   */
  public static boolean isPresent(String name, ClassLoader loader) {
    try {
      Class.forName(name, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError absent) {
      return false;
    }
  }

  /**
   * The {@code Implementation-Version} of the jar that holds {@code name}, as its manifest says.
   *
   * @param name a binary class name
   * @param loader where to look
   * @return the version; empty if the class is absent or its jar names none
   */
  public static Optional<String> implementationVersion(String name, ClassLoader loader) {
    try {
      return Optional.ofNullable(Class.forName(name, false, loader).getPackage().getImplementationVersion());
    } catch (ClassNotFoundException | LinkageError absent) {
      return Optional.empty();
    }
  }
}
