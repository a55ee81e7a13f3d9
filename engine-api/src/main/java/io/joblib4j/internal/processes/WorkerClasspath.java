package io.joblib4j.internal.processes;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The class path of worker JVMs: joblib4j's own jar (so the worker main class is found even when
 * joblib4j itself sits in a child class loader, as with {@code spark-submit --packages}), this
 * JVM's {@code java.class.path}, and the local files behind the URL class loaders between the
 * calling thread's context class loader and the application loader — where Spark, notebooks and
 * application servers put user jars. Loaders that do not expose local files cannot be reproduced;
 * {@link ClassVisibility} refuses to send their classes.
 *
 * @param entries the class path entries, in order, without duplicates
 * @param visibility which loaders' classes the workers will be able to load
 */
record WorkerClasspath(List<String> entries, ClassVisibility visibility) {

  static WorkerClasspath of(ClassLoader context) {
    LinkedHashSet<String> entries = new LinkedHashSet<>();
    entries.add(ownLocation());
    for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (!e.isEmpty()) {
        entries.add(e);
      }
    }
    List<ClassLoader> chain = new ArrayList<>();
    for (ClassLoader l = context; l != null && l != ClassLoader.getSystemClassLoader()
        && l != ClassLoader.getPlatformClassLoader(); l = l.getParent()) {
      chain.add(l);
    }
    Collections.reverse(chain); // parents first: their classes win, as in the parent JVM
    Set<ClassLoader> shipped = Collections.newSetFromMap(new IdentityHashMap<>());
    for (ClassLoader l : chain) {
      List<String> files = localFiles(l);
      if (files != null) {
        entries.addAll(files);
        shipped.add(l);
      }
    }
    return new WorkerClasspath(List.copyOf(entries), new ClassVisibility(shipped));
  }

  /** The local files of a URL class loader, or null if it is not one or has other URLs. */
  static List<String> localFiles(ClassLoader l) {
    URL[] urls = urls(l);
    if (urls == null) {
      return null;
    }
    List<String> files = new ArrayList<>();
    for (URL u : urls) {
      if (!"file".equals(u.getProtocol())) {
        return null;
      }
      try {
        files.add(Path.of(u.toURI()).toString());
      } catch (URISyntaxException | IllegalArgumentException e) {
        return null;
      }
    }
    return files;
  }

  /** URLClassLoaders, and loaders that look like one (a public {@code URL[] getURLs()}). */
  private static URL[] urls(ClassLoader l) {
    if (l instanceof URLClassLoader u) {
      return u.getURLs();
    }
    try {
      Method m = l.getClass().getMethod("getURLs");
      return m.getReturnType() == URL[].class ? (URL[]) m.invoke(l) : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Where the worker main class is: joblib4j's jar or classes folder. */
  private static String ownLocation() {
    CodeSource cs = WorkerMain.class.getProtectionDomain().getCodeSource();
    try {
      if (cs != null && cs.getLocation() != null && "file".equals(cs.getLocation().getProtocol())) {
        return Path.of(cs.getLocation().toURI()).toString();
      }
    } catch (URISyntaxException | IllegalArgumentException e) {
      // fall through to the refusal
    }
    throw new IllegalStateException("the processes backend cannot start worker JVMs: joblib4j's own classes"
        + " were not loaded from a local jar or folder (" + (cs == null ? "no code source" : cs.getLocation())
        + "), so a worker could not find its main class. Use backend(\"threads\"), or put the"
        + " joblib4j-engine-api jar on a local class path");
  }
}
