package io.joblib4j.internal.parallel;

import io.joblib4j.spi.BackendProvider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The backend providers: those registered by hand, and those listed in {@code META-INF/services}
 * of the thread context class loader (read once per class loader, so a provider in a Spark or
 * notebook user jar is found where the caller's classes are).
 */
public final class BackendRegistry {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}");
  private static final Map<String, BackendProvider> REGISTERED = new ConcurrentHashMap<>();
  private static final Set<String> UNREGISTERED = ConcurrentHashMap.newKeySet();
  private static final Map<ClassLoader, Map<String, BackendProvider>> DISCOVERED = new WeakHashMap<>();

  private BackendRegistry() {}

  /** Rejects names users could not write or that would clash ({@code "Spark "}, {@code ""}). */
  public static void validateName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("invalid backend name "
          + (name == null ? "null" : "\"" + name + "\"")
          + ": use lowercase letters, digits and dashes, starting with a letter (e.g. \"threads\", \"spark\")");
    }
  }

  /** Registers {@code provider} under {@code name}; fails if the name is taken. */
  public static void register(String name, BackendProvider provider) {
    validateName(name);
    if (provider == null) {
      throw new IllegalArgumentException("provider for backend \"" + name + "\" is null");
    }
    synchronized (BackendRegistry.class) {
      BackendProvider existing = find(name);
      if (existing != null) {
        throw new IllegalArgumentException("backend \"" + name + "\" is already provided by "
            + existing.getClass().getName() + "; call Backends.unregister(\"" + name
            + "\") first to replace it");
      }
      UNREGISTERED.remove(name);
      REGISTERED.put(name, provider);
    }
  }

  /** Removes the provider of {@code name}, registered or discovered. */
  public static boolean unregister(String name) {
    synchronized (BackendRegistry.class) {
      boolean known = find(name) != null;
      REGISTERED.remove(name);
      if (known) {
        UNREGISTERED.add(name);
      }
      return known;
    }
  }

  /** The provider of {@code name}, or an error listing the names that exist. */
  public static BackendProvider provider(String name) {
    BackendProvider p = find(name);
    if (p != null) {
      return p;
    }
    StringBuilder msg = new StringBuilder("unknown backend \"").append(name).append("\"; available: ")
        .append(String.join(", ", names()));
    String hint = switch (name) {
      case "spark" -> " — the spark backend is in io.joblib4j:joblib4j-spark-backend_2.13; put it on the classpath";
      case "loky", "multiprocessing" -> " — joblib's process backends are called \"processes\" here";
      case "threading" -> " — joblib's \"threading\" is called \"threads\" here";
      default -> "";
    };
    throw new IllegalArgumentException(msg.append(hint).toString());
  }

  /** Every backend name that can be used from the current thread. */
  public static Set<String> names() {
    Set<String> names = new TreeSet<>(discovered().keySet());
    names.removeAll(UNREGISTERED);
    names.addAll(REGISTERED.keySet());
    return Collections.unmodifiableSet(names);
  }

  private static BackendProvider find(String name) {
    BackendProvider p = REGISTERED.get(name);
    if (p != null) {
      return p;
    }
    return UNREGISTERED.contains(name) ? null : discovered().get(name);
  }

  private static Map<String, BackendProvider> discovered() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = BackendRegistry.class.getClassLoader();
    }
    synchronized (DISCOVERED) {
      Map<String, BackendProvider> found = DISCOVERED.get(loader);
      if (found == null) {
        found = load(loader);
        DISCOVERED.put(loader, found);
      }
      return found;
    }
  }

  private static Map<String, BackendProvider> load(ClassLoader loader) {
    Map<String, BackendProvider> byName = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    try {
      for (BackendProvider p : ServiceLoader.load(BackendProvider.class, loader)) {
        String name = p.name();
        try {
          validateName(name);
        } catch (IllegalArgumentException e) {
          problems.add(p.getClass().getName() + ": " + e.getMessage());
          continue;
        }
        BackendProvider clash = byName.putIfAbsent(name, p);
        if (clash != null && clash.getClass() != p.getClass()) {
          problems.add("backend \"" + name + "\" is provided twice, by " + clash.getClass().getName()
              + " and " + p.getClass().getName() + "; remove one of the jars");
        }
      }
    } catch (ServiceConfigurationError e) {
      problems.add("a backend provider could not be loaded: " + e.getMessage());
    }
    if (!problems.isEmpty()) {
      throw new IllegalStateException("joblib4j backend providers are misconfigured: " + String.join("; ", problems));
    }
    return Collections.unmodifiableMap(byName);
  }
}
