package io.joblib4j.spi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.WeakHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * The registry of {@link Compressor}s: those listed in {@code META-INF/services/io.joblib4j.spi.Compressor}
 * of joblib4j's own class loader (the seven built-in codecs are listed there, in joblib's order),
 * those registered by hand, and those found by {@link ServiceLoader} through the thread context
 * class loader (looked up once per class loader). Names, extensions and magic bytes must be unique;
 * a clash is an {@link IllegalArgumentException} that names both codecs.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class Compressors {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_+-]{0,31}");
  private static final Pattern EXTENSION = Pattern.compile("\\.[a-z0-9][a-z0-9._-]{0,15}");
  /** The first bytes of an uncompressed joblib4j container; no codec magic may overlap them. */
  private static final byte[] CONTAINER_MAGIC_PREFIX = {(byte) 0x89, 'J'};

  /** Registered by hand, by name; one may replace a discovered codec of its name. */
  private static final Map<String, Compressor> REGISTERED = new LinkedHashMap<>();
  /** Listed in the services files joblib4j's own class loader sees: the built-ins first. */
  private static final List<Compressor> OWN = load(Compressors.class.getClassLoader(), List.of());
  /** Listed in the services files of each context class loader, besides {@link #OWN}. */
  private static final Map<ClassLoader, List<Compressor>> DISCOVERED = new WeakHashMap<>();

  private Compressors() {}

  /**
   * Registers {@code compressor}.
   *
   * @param compressor the codec
   * @throws IllegalArgumentException if its name, extension or magic is invalid or already taken
   */
  public static void register(Compressor compressor) {
    register(compressor, false);
  }

  /**
   * Registers {@code compressor}; with {@code replace} an existing codec of the same name is replaced
   * (joblib's {@code force=True}).
   *
   * @param compressor the codec
   * @param replace whether it may replace a codec of its name
   * @throws IllegalArgumentException if its name, extension or magic is invalid, or clashes with
   *     another codec's
   */
  public static synchronized void register(Compressor compressor, boolean replace) {
    validate(compressor);
    Compressor existing = find(compressor.name()).orElse(null);
    if (existing != null && !replace) {
      throw new IllegalArgumentException("A compressor named \"" + compressor.name()
          + "\" is already registered (" + existing.getClass().getName()
          + "); pick another name or call register(compressor, true) to replace it");
    }
    List<Compressor> others = new ArrayList<>(all());
    others.removeIf(c -> c.name().equals(compressor.name()));
    checkNoClash(compressor, others);
    REGISTERED.put(compressor.name(), compressor);
  }

  /**
   * Removes a codec registered by hand (a discovered one stays); returns whether one was removed.
   *
   * @param name the codec's name
   * @return whether one was removed
   */
  public static synchronized boolean unregister(String name) {
    return REGISTERED.remove(name) != null;
  }

  /**
   * The codec called {@code name}, if any.
   *
   * @param name a codec's name
   * @return the codec, if any
   */
  public static Optional<Compressor> find(String name) {
    return all().stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * The codec called {@code name}.
   *
   * @param name a codec's name
   * @return the codec
   * @throws IllegalArgumentException naming the known codecs if there is none
   */
  public static Compressor get(String name) {
    return find(name).orElseThrow(() -> new IllegalArgumentException("Non valid compression method given: \""
        + name + "\"; known methods: " + names()));
  }

  /**
   * The codec whose extension ends {@code fileName}, if any (case-insensitive).
   *
   * @param fileName a file name
   * @return the codec, if any
   */
  public static Optional<Compressor> forFileName(String fileName) {
    String lower = fileName.toLowerCase(java.util.Locale.ROOT);
    return all().stream().filter(c -> lower.endsWith(c.extension())).findFirst();
  }

  /**
   * The codec whose magic starts {@code prefix[0..length)}, if any.
   *
   * @param prefix the first bytes of a stream
   * @param length how many of them were read
   * @return the codec, if any
   */
  public static Optional<Compressor> detect(byte[] prefix, int length) {
    for (Compressor c : all()) {
      byte[] m = c.magic();
      if (length >= m.length && Arrays.equals(prefix, 0, m.length, m, 0, m.length)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /**
   * The names of all codecs, built-in first.
   *
   * @return the names
   */
  public static List<String> names() {
    return all().stream().map(Compressor::name).collect(Collectors.toList());
  }

  /**
   * All codecs: those of joblib4j's own class loader (built-in first; one registered by hand under
   * the same name in its place), the others registered by hand, then those found through the
   * context class loader.
   *
   * @return every codec usable from the current thread
   */
  public static synchronized Collection<Compressor> all() {
    List<Compressor> out = new ArrayList<>();
    for (Compressor c : OWN) {
      out.add(REGISTERED.getOrDefault(c.name(), c));
    }
    for (Compressor c : REGISTERED.values()) {
      addIfNew(out, c);
    }
    for (Compressor c : discovered()) {
      addIfNew(out, c);
    }
    return Collections.unmodifiableList(out);
  }

  private static void addIfNew(List<Compressor> out, Compressor c) {
    if (out.stream().noneMatch(o -> o.name().equals(c.name()))) {
      out.add(c);
    }
  }

  private static List<Compressor> discovered() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null || loader == Compressors.class.getClassLoader()) {
      return List.of();
    }
    return DISCOVERED.computeIfAbsent(loader, l -> load(l, OWN));
  }

  /** The codecs {@code loader}'s services files list, validated, except those of {@code known}'s classes. */
  private static List<Compressor> load(ClassLoader loader, List<Compressor> known) {
    List<Compressor> found = new ArrayList<>();
    for (Compressor c : ServiceLoader.load(Compressor.class, loader)) {
      if (known.stream().anyMatch(k -> k.getClass() == c.getClass())) {
        continue; // joblib4j's own, seen again through a context loader that delegates to its loader
      }
      validate(c);
      List<Compressor> others = new ArrayList<>(known);
      others.addAll(REGISTERED.values());
      others.addAll(found);
      checkNoClash(c, others);
      found.add(c);
    }
    return List.copyOf(found);
  }

  private static void validate(Compressor c) {
    if (c == null) {
      throw new IllegalArgumentException("compressor must not be null");
    }
    String what = "Compressor " + c.getClass().getName();
    if (c.name() == null || !NAME.matcher(c.name()).matches()) {
      throw new IllegalArgumentException(what + " has an invalid name \"" + c.name()
          + "\": use 1-32 characters of [a-z0-9_+-], starting with a letter");
    }
    if (c.extension() == null || !EXTENSION.matcher(c.extension()).matches()) {
      throw new IllegalArgumentException(what + " (\"" + c.name() + "\") has an invalid extension \""
          + c.extension() + "\": use a dot and 1-16 lower case characters, e.g. \".snappy\"");
    }
    byte[] m = c.magic();
    if (m == null || m.length < 1 || m.length > 16) {
      throw new IllegalArgumentException(what + " (\"" + c.name()
          + "\") must have 1 to 16 magic bytes to be detected on load");
    }
    if (overlap(m, CONTAINER_MAGIC_PREFIX)) {
      throw new IllegalArgumentException(what + " (\"" + c.name()
          + "\") has magic bytes that collide with joblib4j's own container magic (0x89 'J')");
    }
    int level = c.defaultLevel();
    if (level < 1 || level > 9) {
      throw new IllegalArgumentException(what + " (\"" + c.name() + "\") has default level " + level
          + "; it must be in 1..9");
    }
  }

  private static void checkNoClash(Compressor c, Collection<Compressor> others) {
    for (Compressor o : others) {
      if (o.name().equals(c.name())) {
        throw new IllegalArgumentException("Two compressors are named \"" + c.name() + "\": "
            + o.getClass().getName() + " and " + c.getClass().getName());
      }
      if (o.extension().equals(c.extension())) {
        throw new IllegalArgumentException("Compressor \"" + c.name() + "\" uses extension "
            + c.extension() + ", already used by \"" + o.name() + "\"");
      }
      if (overlap(o.magic(), c.magic())) {
        throw new IllegalArgumentException("Compressor \"" + c.name() + "\" has magic bytes that "
            + "overlap those of \"" + o.name() + "\", so files could not be told apart on load");
      }
    }
  }

  /** True if one of the two byte strings is a prefix of the other. */
  private static boolean overlap(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    return Arrays.equals(a, 0, n, b, 0, n);
  }
}
