package io.joblib4j.internal.processes;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Which class loaders' classes a worker JVM can load: the JDK's, the application class path's, the
 * loader of joblib4j itself, and the URL class loaders between the caller's context class loader
 * and the application loader whose URLs were all put on the worker's class path. A class defined
 * by any other loader (a REPL's in-memory loader, a loader over non-file URLs) cannot be
 * deserialized by a worker, so sending it is refused with an explanation instead of failing there.
 */
final class ClassVisibility {
  private final Set<ClassLoader> visible = Collections.newSetFromMap(new IdentityHashMap<>());

  ClassVisibility(Set<ClassLoader> shippedLoaders) {
    visible.addAll(shippedLoaders);
    visible.add(ClassLoader.getPlatformClassLoader());
    visible.add(ClassLoader.getSystemClassLoader());
    visible.add(ClassVisibility.class.getClassLoader());
  }

  boolean canLoad(Class<?> c) {
    ClassLoader l = c.getClassLoader();
    return l == null || visible.contains(l);
  }

  /** Why a worker cannot load {@code c}, and what to do about it. */
  static String explain(Class<?> c) {
    ClassLoader l = c.getClassLoader();
    return "class " + c.getName() + " was loaded by " + l + " (" + l.getClass().getName() + "), whose"
        + " classes a worker JVM cannot load: it is not a URLClassLoader over local files on this"
        + " thread's context class loader chain. Put the class in a jar on the class path (in Spark:"
        + " --jars or spark.jars), or use backend(\"threads\")";
  }
}
