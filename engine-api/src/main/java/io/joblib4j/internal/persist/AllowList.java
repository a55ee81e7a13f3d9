package io.joblib4j.internal.persist;

import io.joblib4j.LoadOptions;
import io.joblib4j.UnsafeClassException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one class allow-list every load path consults (data-only codec, Kryo, Java serialization):
 * decided by name, before the class is initialised or any instance of it exists. Records and enums
 * are accepted by default (they are data, and their fields are checked one by one as they are read);
 * the class is loaded without initialisation to find that out.
 */
final class AllowList {
  /** Exact JDK and joblib4j classes accepted by default: values and collections with no behaviour. */
  static final Set<String> DEFAULT_CLASSES = Set.of(
      "java.lang.Object", "java.lang.Number", "java.lang.Enum", "java.lang.Record",
      "java.lang.Boolean", "java.lang.Byte", "java.lang.Short", "java.lang.Character", "java.lang.Integer",
      "java.lang.Long", "java.lang.Float", "java.lang.Double", "java.lang.String", "java.lang.Void",
      "java.math.BigInteger", "java.math.BigDecimal",
      "java.util.ArrayList", "java.util.LinkedList", "java.util.ArrayDeque", "java.util.Vector",
      "java.util.HashMap", "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.Hashtable",
      "java.util.IdentityHashMap", "java.util.PriorityQueue",
      "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.EnumMap",
      "java.util.EnumSet", "java.util.RegularEnumSet", "java.util.JumboEnumSet",
      "java.util.Arrays$ArrayList", "java.util.UUID", "java.util.BitSet", "java.util.Date", "java.util.Locale",
      "java.util.Optional", "java.util.OptionalInt", "java.util.OptionalLong", "java.util.OptionalDouble",
      "java.util.concurrent.ConcurrentHashMap", "java.util.concurrent.ConcurrentSkipListMap",
      "java.util.concurrent.ConcurrentSkipListSet",
      "java.util.concurrent.CopyOnWriteArrayList", "java.util.concurrent.CopyOnWriteArraySet",
      "java.util.concurrent.ConcurrentLinkedQueue", "java.util.concurrent.ConcurrentLinkedDeque",
      "java.util.concurrent.ArrayBlockingQueue", "java.util.concurrent.LinkedBlockingQueue",
      "java.util.concurrent.LinkedBlockingDeque", "java.util.concurrent.PriorityBlockingQueue",
      "java.util.concurrent.atomic.AtomicInteger", "java.util.concurrent.atomic.AtomicLong",
      "java.util.concurrent.atomic.AtomicBoolean", "java.net.URI",
      "io.joblib4j.MmapMode", "io.joblib4j.HashAlgorithm");
  /**
   * Prefixes accepted by default: the JDK's immutable and wrapped collections, java.time,
   * joblib4j's arrays. Exceptions under them are refused: they are not data, and their stack traces
   * are not on the list.
   */
  static final List<String> DEFAULT_PREFIXES = List.of(
      "java.util.ImmutableCollections$", "java.util.Collections$Unmodifiable", "java.util.Collections$Empty",
      "java.util.Collections$Singleton", "java.util.Collections$Synchronized", "java.util.Collections$Checked",
      "java.time.", "io.joblib4j.array.");
  /**
   * Classes that appear only inside the Java-serialized form of allowed classes, accepted there and
   * nowhere else: ConcurrentHashMap writes Segments, which are ReentrantLocks; the blocking queues
   * write their locks and conditions; EnumSet and the immutable collections write serial proxies.
   * None has behaviour on load beyond setting its own fields.
   */
  static final Set<String> SERIAL_FORMS = Set.of(
      "java.util.concurrent.ConcurrentHashMap$Segment", "java.util.concurrent.locks.ReentrantLock",
      "java.util.concurrent.locks.ReentrantLock$Sync", "java.util.concurrent.locks.ReentrantLock$NonfairSync",
      "java.util.concurrent.locks.AbstractQueuedSynchronizer",
      "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
      "java.util.concurrent.locks.AbstractOwnableSynchronizer",
      "java.util.EnumSet$SerializationProxy", "java.util.CollSer");

  private final LoadOptions options;
  private final ClassLoader loader;
  private final String source;
  private final Map<String, Boolean> decided = new HashMap<>();

  AllowList(LoadOptions options, ClassLoader loader, String source) {
    this.options = options;
    this.loader = loader;
    this.source = source;
  }

  ClassLoader loader() {
    return loader;
  }

  boolean trusted() {
    return options.isTrusted();
  }

  /** Refuses {@code className} unless it is allowed; throws {@link UnsafeClassException}. */
  void check(String className) {
    if (!allowed(className)) {
      throw new UnsafeClassException(source, className);
    }
  }

  /**
   * As {@link #check}, for a class named inside a Java-serialized payload, where the serial forms
   * of allowed classes ({@link #SERIAL_FORMS}) are accepted too.
   */
  void checkInSerialForm(String className) {
    if (!SERIAL_FORMS.contains(ClassNames.elementName(className))) {
      check(className);
    }
  }

  /** Checks then loads (without initialising) {@code className}. */
  Class<?> resolve(String className) throws ClassNotFoundException {
    check(className);
    return Class.forName(className, false, loader);
  }

  boolean allowed(String className) {
    if (options.isTrusted()) {
      return true;
    }
    Boolean d = decided.get(className);
    if (d == null) {
      d = decide(className);
      decided.put(className, d);
    }
    return d;
  }

  private boolean decide(String name) {
    String n = ClassNames.elementName(name);
    if (name.startsWith("[") && n.equals(name)) {
      String element = name.replaceFirst("^\\[+", "");
      return element.length() == 1 && "ZBCSIJFD".contains(element); // a primitive array, or malformed
    }
    if (n.isEmpty()) {
      return false;
    }
    if (DEFAULT_CLASSES.contains(n) || options.allowedClasses().contains(n)) {
      return true;
    }
    for (String p : DEFAULT_PREFIXES) {
      if (n.startsWith(p)) {
        return !isThrowable(n);
      }
    }
    for (String p : options.allowedPackages()) {
      if (n.startsWith(p + ".")) {
        return true;
      }
    }
    try {
      Class<?> c = Class.forName(n, false, loader);
      return c.isRecord() || c.isEnum() || (c.getSuperclass() != null && c.getSuperclass().isEnum());
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private boolean isThrowable(String name) {
    try {
      return Throwable.class.isAssignableFrom(Class.forName(name, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return false; // not loadable here: refused later, when it is resolved
    }
  }
}
