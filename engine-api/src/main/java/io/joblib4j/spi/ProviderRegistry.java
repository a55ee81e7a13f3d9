package io.joblib4j.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Providers of one SPI by key (a backend name, a URI scheme): those registered by hand, and those
 * listed in {@code META-INF/services} — of the thread context class loader, so that a provider in a
 * Spark or notebook user jar is found where the caller's classes are, and of the loader that
 * loaded the SPI itself, so that joblib4j's own providers, listed the same way, are found whatever
 * the context loader is. Each loader is read once. Keys are validated, clashes between jars are
 * reported naming both classes, and a key can be unregistered (which also hides a discovered
 * provider). Behind {@link Backends} and {@link Stores}.
 *
 * <p>joblib4j's own providers of a few keys ({@code builtIns}) are found without reading any
 * services file: reading them opens every jar of the class path, some 15 ms of a fresh program's
 * first call on one jar and 40 ms on twenty (an IDE's or {@code mvn}'s class path). A jar that
 * claims a built-in key is still reported, whenever the services files are read.
 *
 * @param <P> the provider type
 */
final class ProviderRegistry<P> {
  private final Class<P> type;
  private final String what;
  private final Predicate<String> validKey;
  private final String keyRule;
  private final Function<P, Collection<String>> keysOf;
  private final Map<String, String> builtIns;
  private final Map<String, P> builtInProviders = new ConcurrentHashMap<>();
  private final Map<String, P> registered = new ConcurrentHashMap<>();
  private final Set<String> hidden = ConcurrentHashMap.newKeySet();
  private final Map<ClassLoader, Map<String, P>> discovered = new WeakHashMap<>();

  /**
   * @param type the SPI interface
   * @param what how error messages call a key ({@code "backend"}, {@code "store scheme"})
   * @param validKey what a valid key looks like (see {@link #lowercaseKey})
   * @param keyRule the rule in words, for error messages
   * @param keysOf the keys a provider serves
   * @param builtIns joblib4j's own providers by key (class names, loaded through the SPI's own
   *     loader), also listed in its services file
   */
  ProviderRegistry(Class<P> type, String what, Predicate<String> validKey, String keyRule,
      Function<P, Collection<String>> keysOf, Map<String, String> builtIns) {
    this.type = type;
    this.what = what;
    this.validKey = validKey;
    this.keyRule = keyRule;
    this.keysOf = keysOf;
    this.builtIns = Map.copyOf(builtIns);
  }

  /**
   * Keys of 1 to {@code maxLength} characters: a lowercase ASCII letter, then lowercase ASCII letters,
   * digits and {@code others}. Checked by hand, not by a regular expression: the registry is read on
   * a fresh program's first call, where compiling one costs milliseconds.
   */
  static Predicate<String> lowercaseKey(int maxLength, String others) {
    return key -> {
      if (key.isEmpty() || key.length() > maxLength || key.charAt(0) < 'a' || key.charAt(0) > 'z') {
        return false;
      }
      for (int i = 1; i < key.length(); i++) {
        char c = key.charAt(i);
        if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || others.indexOf(c) >= 0)) {
          return false;
        }
      }
      return true;
    };
  }

  /** Rejects keys users could not write or that would clash. */
  void validateKey(String key) {
    if (key == null || !validKey.test(key)) {
      throw new IllegalArgumentException("invalid " + what + " "
          + (key == null ? "null" : "\"" + key + "\"") + ": " + keyRule);
    }
  }

  /** Registers {@code provider} under {@code key}; fails if the key is taken. */
  synchronized void register(String key, P provider) {
    validateKey(key);
    if (provider == null) {
      throw new IllegalArgumentException("provider for " + what + " \"" + key + "\" is null");
    }
    P existing = find(key);
    if (existing != null) {
      throw new IllegalArgumentException(what + " \"" + key + "\" is already provided by "
          + existing.getClass().getName() + "; unregister it first to replace it");
    }
    hidden.remove(key);
    registered.put(key, provider);
  }

  /** Removes the provider of {@code key}, registered or discovered; true if there was one. */
  synchronized boolean unregister(String key) {
    boolean known = find(key) != null;
    registered.remove(key);
    if (known) {
      hidden.add(key);
    }
    return known;
  }

  /** The provider of {@code key}, or null. */
  P find(String key) {
    P p = registered.get(key);
    if (p != null) {
      return p;
    }
    if (hidden.contains(key)) {
      return null;
    }
    String builtIn = builtIns.get(key);
    return builtIn != null ? builtInProviders.computeIfAbsent(key, k -> instantiate(builtIn)) : discovered().get(key);
  }

  private P instantiate(String className) {
    try {
      return type.cast(Class.forName(className, true, type.getClassLoader()).getConstructor().newInstance());
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      throw new IllegalStateException("joblib4j's own " + what + " provider " + className + " cannot be created"
          + " (" + e + "); its jar is incomplete or mixes versions: use one joblib4j version on the class path", e);
    }
  }

  /** Every key usable from the current thread. */
  Set<String> keys() {
    Set<String> keys = new TreeSet<>(discovered().keySet());
    keys.addAll(builtIns.keySet());
    keys.removeAll(hidden);
    keys.addAll(registered.keySet());
    return Collections.unmodifiableSet(keys);
  }

  private Map<String, P> discovered() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = type.getClassLoader();
    }
    synchronized (discovered) {
      Map<String, P> found = discovered.get(loader);
      if (found == null) {
        found = load(loader);
        discovered.put(loader, found);
      }
      return found;
    }
  }

  /** The providers {@code loader} lists, then those of the SPI's own loader it does not see. */
  private Map<String, P> load(ClassLoader loader) {
    Map<String, P> byKey = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    List<P> providers = new ArrayList<>();
    Set<Class<?>> seen = new HashSet<>();
    try {
      ClassLoader own = type.getClassLoader();
      for (ClassLoader l : loader == own ? List.of(loader) : List.of(loader, own)) {
        for (P p : ServiceLoader.load(type, l)) {
          if (seen.add(p.getClass())) {
            providers.add(p);
          }
        }
      }
    } catch (ServiceConfigurationError e) {
      problems.add("a provider could not be loaded: " + e.getMessage());
    }
    for (P p : providers) {
      for (String key : keysOf.apply(p)) {
        try {
          validateKey(key);
        } catch (IllegalArgumentException e) {
          problems.add(p.getClass().getName() + ": " + e.getMessage());
          continue;
        }
        String builtIn = builtIns.get(key);
        if (builtIn != null && !builtIn.equals(p.getClass().getName())) {
          problems.add(what + " \"" + key + "\" is joblib4j's own, also claimed by " + p.getClass().getName()
              + "; rename that provider, or unregister joblib4j's and register yours by hand");
          continue;
        }
        P clash = byKey.putIfAbsent(key, p);
        if (clash != null && clash.getClass() != p.getClass()) {
          problems.add(what + " \"" + key + "\" is provided twice, by " + clash.getClass().getName()
              + " and " + p.getClass().getName() + "; remove one of the jars");
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalStateException("joblib4j " + type.getSimpleName() + "s are misconfigured: "
          + String.join("; ", problems));
    }
    return Collections.unmodifiableMap(byKey);
  }
}
