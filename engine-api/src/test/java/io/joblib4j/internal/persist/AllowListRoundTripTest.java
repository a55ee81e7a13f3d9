package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.Joblib;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.UnsafeClassException;
import io.joblib4j.array.ArrayMapping;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.chrono.HijrahChronology;
import java.time.chrono.HijrahDate;
import java.time.chrono.IsoChronology;
import java.time.chrono.JapaneseChronology;
import java.time.chrono.JapaneseDate;
import java.time.chrono.JapaneseEra;
import java.time.chrono.MinguoChronology;
import java.time.chrono.MinguoDate;
import java.time.chrono.ThaiBuddhistChronology;
import java.time.chrono.ThaiBuddhistDate;
import java.time.temporal.ValueRange;
import java.time.temporal.WeekFields;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Date;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.Vector;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every class the default allow-list accepts loads with the default options (issue 19.4): the list
 * of classes is generated from the allow-list itself (its exact names, and every class of the JDK
 * its prefixes match, found in the runtime image), so a class added to it later fails here until it
 * has a sample. A class that matches but is not data (an iterator, a serial proxy, an exception)
 * must be named in {@link #NOT_DATA} with the reason.
 */
class AllowListRoundTripTest {
  enum Color { RED, GREEN }

  /** A sample of each allowed class, by binary name. */
  static final Map<String, Supplier<Object>> SAMPLES = new LinkedHashMap<>();
  /** Allowed names that have no instances of their own to round-trip, and why. */
  static final Map<String, String> NOT_DATA = new LinkedHashMap<>();

  private static void sample(Supplier<Object> s) {
    Object v = s.get();
    SAMPLES.put(v.getClass().getName(), s);
  }

  private static void sample(String name, Supplier<Object> s) {
    SAMPLES.put(name, s);
  }

  /** A sample from {@code Collections.<factory>(of)}, if this JDK has that factory (Java 21 and newer). */
  private static void sequencedView(String factory, Object of) {
    for (java.lang.reflect.Method m : Collections.class.getMethods()) {
      if (m.getName().equals(factory) && m.getParameterCount() == 1) {
        sample(() -> {
          try {
            return m.invoke(null, of);
          } catch (ReflectiveOperationException e) {
            throw new AssertionError(factory, e);
          }
        });
      }
    }
  }

  static {
    // java.lang and java.math
    sample("java.lang.Object", Object::new);
    NOT_DATA.put("java.lang.Number", "abstract: the superclass of allowed numbers in a Java-serialized stream");
    NOT_DATA.put("java.lang.Enum", "abstract: the superclass of every enum");
    NOT_DATA.put("java.lang.Record", "abstract: the superclass of every record");
    NOT_DATA.put("java.lang.Void", "has no instances (a Void-typed field holds null)");
    for (Object v : List.of(true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d, "s", java.math.BigInteger.TEN,
        new java.math.BigDecimal("1.50"))) {
      sample(() -> v);
    }
    // java.util
    sample(() -> new ArrayList<>(List.of(1, 2)));
    sample(() -> new LinkedList<>(List.of(1, 2)));
    sample(() -> new ArrayDeque<>(List.of(1, 2)));
    sample(() -> new Vector<>(List.of(1, 2)));
    sample(() -> new HashMap<>(Map.of("a", 1)));
    sample(() -> new LinkedHashMap<>(Map.of("a", 1)));
    sample(() -> new TreeMap<>(Map.of("a", 1, "b", 2)));
    sample(() -> new Hashtable<>(Map.of("a", 1)));
    sample(() -> new HashSet<>(List.of(1, 2)));
    sample(() -> new LinkedHashSet<>(List.of(1, 2)));
    sample(() -> new TreeSet<>(List.of(1, 2)));
    sample(() -> new IdentityHashMap<>(Map.of("a", 1)));
    sample(() -> new PriorityQueue<>(List.of(3, 1, 2)));
    sample(() -> new EnumMap<>(Map.of(Color.RED, 1)));
    NOT_DATA.put("java.util.EnumSet", "abstract: its instances are RegularEnumSet or JumboEnumSet");
    sample(() -> EnumSet.of(Color.GREEN));
    sample("java.util.JumboEnumSet", () -> EnumSet.of(JumboEnum.E64, JumboEnum.E0));
    sample(() -> Arrays.asList(1, 2));
    sample(() -> UUID.fromString("00000000-0000-0001-0000-000000000002"));
    sample(() -> BitSet.valueOf(new long[] {0b1011}));
    sample(() -> new Date(1_700_000_000_000L));
    sample(() -> Locale.CANADA_FRENCH);
    sample(() -> Optional.of("x"));
    sample(() -> OptionalInt.of(1));
    sample(() -> OptionalLong.of(2));
    sample(() -> OptionalDouble.of(3));
    // java.util.concurrent
    sample(() -> new ConcurrentHashMap<>(Map.of("a", 1, "b", 2)));
    sample(() -> new ConcurrentSkipListMap<>(Map.of("a", 1, "b", 2)));
    sample(() -> new ConcurrentSkipListSet<>(List.of(2, 1)));
    sample(() -> new CopyOnWriteArrayList<>(List.of(1, 2)));
    sample(() -> new CopyOnWriteArraySet<>(List.of(1, 2)));
    sample(() -> new ConcurrentLinkedQueue<>(List.of(1, 2)));
    sample(() -> new ConcurrentLinkedDeque<>(List.of(1, 2)));
    sample(() -> new ArrayBlockingQueue<>(4, false, List.of(1, 2)));
    sample(() -> new LinkedBlockingQueue<>(List.of(1, 2)));
    sample(() -> new LinkedBlockingDeque<>(List.of(1, 2)));
    sample(() -> new java.util.concurrent.PriorityBlockingQueue<>(List.of(3, 1, 2)));
    sample(() -> new AtomicInteger(7));
    sample(() -> new AtomicLong(8));
    sample(() -> new AtomicBoolean(true));
    sample(() -> URI.create("hdfs://nn:8020/a?b#c"));
    // joblib4j
    sample(() -> MmapMode.READ_ONLY);
    sample(() -> HashAlgorithm.SHA_256);
    sample(() -> NDArray.of(new double[] {1, 2, 3, 4}, 2, 2));
    sample(() -> DType.INT16);
    sample(() -> new ArrayMapping("/data/a.f64", 64, DType.FLOAT64, new long[] {2}, new long[] {1},
        MmapMode.READ_ONLY));
    // the JDK's immutable and wrapped collections
    sample(() -> List.of(1));
    sample(() -> List.of(1, 2, 3));
    sample(() -> Set.of(1));
    sample(() -> Set.of(1, 2, 3));
    sample(() -> Map.of("a", 1));
    sample(() -> Map.of("a", 1, "b", 2));
    List<Integer> list = List.of(1, 2);
    Map<String, Integer> map = Map.of("a", 1);
    sample(() -> Collections.unmodifiableCollection(new ArrayList<>(list)));
    sample(() -> Collections.unmodifiableList(new LinkedList<>(list)));
    sample(() -> Collections.unmodifiableList(new ArrayList<>(list)));
    sample(() -> Collections.unmodifiableSet(new HashSet<>(list)));
    sample(() -> Collections.unmodifiableSortedSet(new TreeSet<>(list)));
    sample(() -> Collections.unmodifiableNavigableSet(new TreeSet<>(list)));
    sample(() -> Collections.emptyNavigableSet());
    sample(() -> Collections.unmodifiableMap(new HashMap<>(map)));
    sample(() -> Collections.unmodifiableSortedMap(new TreeMap<>(map)));
    sample(() -> Collections.unmodifiableNavigableMap(new TreeMap<>(map)));
    sample(() -> Collections.emptyNavigableMap());
    // Java 21's sequenced views match the allow-list's Collections prefix too: on a JDK that has
    // them they must round-trip like the others (made by name, as this build targets Java 17)
    sequencedView("unmodifiableSequencedCollection", new ArrayList<>(list));
    sequencedView("unmodifiableSequencedSet", new LinkedHashSet<>(list));
    sequencedView("unmodifiableSequencedMap", new LinkedHashMap<>(map));
    NOT_DATA.put("java.util.Collections$UnmodifiableMap$UnmodifiableEntrySet",
        "a view of a map's entries, which are not Serializable: cannot be dumped");
    sample(() -> Collections.emptyList());
    sample(() -> Collections.emptySet());
    sample(() -> Collections.emptyMap());
    sample(() -> Collections.singletonList(1));
    sample(() -> Collections.singleton(1));
    sample(() -> Collections.singletonMap("a", 1));
    sample(() -> Collections.synchronizedCollection(new ArrayList<>(list)));
    sample(() -> Collections.synchronizedList(new LinkedList<>(list)));
    sample(() -> Collections.synchronizedList(new ArrayList<>(list)));
    sample(() -> Collections.synchronizedSet(new HashSet<>(list)));
    sample(() -> Collections.synchronizedSortedSet(new TreeSet<>(list)));
    sample(() -> Collections.synchronizedNavigableSet(new TreeSet<>(list)));
    sample(() -> Collections.synchronizedMap(new HashMap<>(map)));
    sample(() -> Collections.synchronizedSortedMap(new TreeMap<>(map)));
    sample(() -> Collections.synchronizedNavigableMap(new TreeMap<>(map)));
    sample(() -> Collections.checkedCollection(new ArrayList<>(list), Integer.class));
    sample(() -> Collections.checkedQueue(new ArrayDeque<>(list), Integer.class));
    sample(() -> Collections.checkedList(new LinkedList<>(list), Integer.class));
    sample(() -> Collections.checkedList(new ArrayList<>(list), Integer.class));
    sample(() -> Collections.checkedSet(new HashSet<>(list), Integer.class));
    sample(() -> Collections.checkedSortedSet(new TreeSet<>(list), Integer.class));
    sample(() -> Collections.checkedNavigableSet(new TreeSet<>(list), Integer.class));
    sample(() -> Collections.checkedMap(new HashMap<>(map), String.class, Integer.class));
    sample(() -> Collections.checkedSortedMap(new TreeMap<>(map), String.class, Integer.class));
    sample(() -> Collections.checkedNavigableMap(new TreeMap<>(map), String.class, Integer.class));
    // java.time and below
    Instant t = Instant.parse("2024-02-29T12:34:56.789Z");
    ZoneId paris = ZoneId.of("Europe/Paris");
    for (Object v : List.of(t, Duration.ofMillis(1500), LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 2, 29, 1, 2),
        LocalTime.of(1, 2, 3), MonthDay.of(2, 29), OffsetDateTime.ofInstant(t, paris), OffsetTime.of(1, 2, 3, 4,
            ZoneOffset.ofHours(2)), Period.of(1, 2, 3), Year.of(2024), YearMonth.of(2024, 2), ZoneOffset.ofHours(-5),
        paris, ZonedDateTime.ofInstant(t, paris))) {
      sample(() -> v);
    }
    sample(() -> Clock.fixed(t, paris));
    sample(() -> Clock.offset(Clock.fixed(t, paris), Duration.ofHours(1)));
    sample(() -> Clock.system(paris));
    sample(() -> Clock.tick(Clock.fixed(t, paris), Duration.ofSeconds(1)));
    sample(() -> InstantSource.system());
    NOT_DATA.put("java.time.Clock$SourceClock", "a Clock over the caller's own InstantSource: loads when that"
        + " class is allowed");
    NOT_DATA.put("io.joblib4j.array.NDArray$SerialForm", "the Java-serialized form of NDArray, loaded with it");
    NOT_DATA.put("java.time.Ser", "the serial form of java.time values, loaded with them");
    NOT_DATA.put("java.time.chrono.Ser", "the serial form of the chronologies' dates, loaded with them");
    NOT_DATA.put("java.time.zone.Ser", "the serial form of zone rules, loaded with them");
    sample(() -> JapaneseDate.of(2024, 2, 29));
    sample(() -> HijrahDate.of(1445, 8, 19));
    sample(() -> MinguoDate.of(113, 2, 29));
    sample(() -> ThaiBuddhistDate.of(2567, 2, 29));
    sample(() -> JapaneseDate.of(2024, 2, 29).atTime(LocalTime.NOON));
    sample(() -> JapaneseDate.of(2024, 2, 29).atTime(LocalTime.NOON).atZone(paris));
    sample(() -> JapaneseChronology.INSTANCE.period(1, 2, 3));
    sample(() -> HijrahChronology.INSTANCE);
    sample(() -> IsoChronology.INSTANCE);
    sample(() -> JapaneseChronology.INSTANCE);
    sample(() -> MinguoChronology.INSTANCE);
    sample(() -> ThaiBuddhistChronology.INSTANCE);
    sample(() -> JapaneseEra.REIWA);
    sample(() -> ValueRange.of(1, 28, 31));
    sample(() -> WeekFields.ISO);
    sample(() -> paris.getRules());
    sample(() -> paris.getRules().nextTransition(t));
    sample(() -> paris.getRules().getTransitionRules().get(0));
    NOT_DATA.put("java.time.format.DateTimeFormatter$ClassicFormat",
        "holds a DateTimeFormatter, which is not Serializable: cannot be dumped");
  }

  enum JumboEnum {
    E0, E1, E2, E3, E4, E5, E6, E7, E8, E9, E10, E11, E12, E13, E14, E15, E16, E17, E18, E19, E20, E21, E22, E23,
    E24, E25, E26, E27, E28, E29, E30, E31, E32, E33, E34, E35, E36, E37, E38, E39, E40, E41, E42, E43, E44, E45,
    E46, E47, E48, E49, E50, E51, E52, E53, E54, E55, E56, E57, E58, E59, E60, E61, E62, E63, E64
  }

  /** Every class name the default allow-list accepts: its exact names and what its prefixes match. */
  static List<String> allowedClasses() throws IOException {
    List<String> names = new ArrayList<>(AllowList.DEFAULT_CLASSES);
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    try (Stream<Path> files = Files.walk(jrt.getPath("/modules/java.base/java"))) {
      files.map(p -> p.toString().substring("/modules/java.base/".length()))
          .filter(n -> n.endsWith(".class"))
          .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
          .filter(n -> AllowList.DEFAULT_PREFIXES.stream().anyMatch(n::startsWith))
          .forEach(names::add);
    }
    for (String p : AllowList.DEFAULT_PREFIXES) {
      if (p.startsWith("io.joblib4j.")) {
        Path dir = Path.of(URI.create(NDArray.class.getProtectionDomain().getCodeSource().getLocation().toString()))
            .resolve(p.replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
          files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class"))
              .map(n -> p + n.substring(0, n.length() - ".class".length())).forEach(names::add);
        }
      }
    }
    return names.stream().distinct().sorted().collect(Collectors.toList());
  }

  /**
   * The names a round trip must cover: concrete classes that can have instances of their own,
   * neither enums (an enum constant loads by name, tested below for all of them at once) nor
   * exceptions (refused, tested below) nor classes that are not Serializable (the JDK's iterators,
   * spliterators and views, which Java serialization cannot write).
   */
  static boolean needsASample(String name) {
    Class<?> c = load(name);
    return !c.isEnum() && !(c.getSuperclass() != null && c.getSuperclass().isEnum())
        && !Throwable.class.isAssignableFrom(c)
        && (Serializable.class.isAssignableFrom(c) || c == Object.class)
        && !c.isInterface() && !java.lang.reflect.Modifier.isAbstract(c.getModifiers()) && !c.isAnonymousClass()
        && !NOT_DATA.containsKey(name);
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, AllowListRoundTripTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError(name + " is on the allow-list but does not exist", e);
    }
  }

  @Test
  void everyAllowedClassHasASampleOrASaysWhyNot() throws IOException {
    List<String> missing = allowedClasses().stream().filter(AllowListRoundTripTest::needsASample)
        .filter(n -> !SAMPLES.containsKey(n)).collect(Collectors.toList());
    assertThat(missing).as("allowed classes without a sample in SAMPLES (or a reason in NOT_DATA)").isEmpty();
    assertThat(SAMPLES.keySet()).as("samples of classes that are not on the allow-list")
        .allMatch(n -> new AllowList(LoadOptions.defaults(), getClass().getClassLoader(), "test").allowed(n));
  }

  @TestFactory
  Stream<DynamicTest> everyAllowedClassRoundTripsWithTheDefaultOptions() throws IOException {
    return allowedClasses().stream().filter(SAMPLES::containsKey).map(name -> DynamicTest.dynamicTest(name, () -> {
      Object sample = SAMPLES.get(name).get();
      assertThat(sample.getClass().getName()).as("the sample's class").isEqualTo(name);
      Object back = roundTrip(sample);
      assertSameContent(sample, back);
    }));
  }

  @Test
  void everyEnumAnAllowedPrefixNamesLoadsByName() throws IOException {
    for (String name : allowedClasses()) {
      Class<?> c = load(name);
      if (c.isEnum()) {
        for (Object constant : c.getEnumConstants()) {
          assertThat(roundTrip(constant)).as(name).isSameAs(constant);
        }
      }
    }
  }

  @Test
  void exceptionsUnderAnAllowedPrefixAreRefusedTheyAreNotData() throws IOException {
    List<String> throwables = allowedClasses().stream().filter(n -> Throwable.class.isAssignableFrom(load(n)))
        .collect(Collectors.toList());
    assertThat(throwables).isNotEmpty();
    AllowList allow = new AllowList(LoadOptions.defaults(), getClass().getClassLoader(), "test");
    assertThat(throwables).noneMatch(allow::allowed);
    byte[] dumped = dump(new java.time.DateTimeException("x"));
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(dumped))).isInstanceOf(UnsafeClassException.class);
  }

  /** PriorityQueue and the sorted collections compare their elements on load: never with a comparator. */
  @Test
  void sortedCollectionsWithAComparatorAreRefusedOnlyNaturalOrderLoads() {
    Comparator<Integer> reverse = Collections.reverseOrder();
    for (Object v : List.of(withComparator(new PriorityQueue<>(reverse)),
        withComparator(new java.util.concurrent.PriorityBlockingQueue<>(2, reverse)),
        withComparator(new TreeMap<Integer, Integer>(reverse)), withComparator(new ConcurrentSkipListSet<>(reverse)),
        withComparator(new ConcurrentSkipListMap<Integer, Integer>(reverse)))) {
      byte[] b = dump(v);
      assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(b))).as(v.getClass().getName())
          .isInstanceOf(UnsafeClassException.class);
    }
  }

  @SuppressWarnings("unchecked")
  private static Object withComparator(Object collection) {
    if (collection instanceof Collection) {
      ((Collection<Integer>) collection).addAll(List.of(1, 2));
    } else {
      ((Map<Integer, Integer>) collection).put(1, 2);
    }
    return collection;
  }

  static byte[] dump(Object v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(v, out);
    return out.toByteArray();
  }

  static Object roundTrip(Object v) {
    return Joblib.load(new ByteArrayInputStream(dump(v)));
  }

  /** Equal content; the same class, except that the codec rebuilds unmodifiable wrappers its own way. */
  static void assertSameContent(Object sample, Object back) {
    String name = sample.getClass().getName();
    if (sample instanceof IdentityHashMap) {
      assertThat(back).isInstanceOf(IdentityHashMap.class);
      assertThat(new HashMap<>((Map<?, ?>) back)).isEqualTo(new HashMap<>((Map<?, ?>) sample));
      return;
    }
    if (sample instanceof NDArray || sample instanceof List || sample instanceof Set || sample instanceof Map) {
      assertThat(back).as(name).isEqualTo(sample);
      if (!back.getClass().equals(sample.getClass())) {
        assertThat(name).as("only unmodifiable collections may come back as another class")
            .matches("java\\.util\\.(ImmutableCollections|Collections)\\$(Unmodifiable|Empty|Singleton|List|Set|Map).*"
                + "|java\\.util\\.Arrays\\$ArrayList");
        if (!name.equals("java.util.Arrays$ArrayList")) {
          assertThatThrownBy(() -> ((Collection<?>) (back instanceof Map ? ((Map<?, ?>) back).keySet() : back)).clear())
              .as(name + " stays unmodifiable").isInstanceOf(UnsupportedOperationException.class);
        }
      }
      return;
    }
    assertThat(back.getClass()).as(name).isEqualTo(sample.getClass());
    if (sample instanceof PriorityQueue) {
      assertThat(new ArrayList<Object>((Collection<?>) back)).containsExactlyInAnyOrderElementsOf(new ArrayList<Object>((Collection<?>) sample));
    } else if (sample instanceof java.util.concurrent.PriorityBlockingQueue) {
      assertThat(new ArrayList<Object>((Collection<?>) back))
          .containsExactlyInAnyOrderElementsOf(new ArrayList<Object>((Collection<?>) sample));
    } else if (sample instanceof Queue || sample instanceof Collection) {
      assertThat(new ArrayList<Object>((Collection<?>) back)).containsExactlyElementsOf(new ArrayList<Object>((Collection<?>) sample));
    } else if (sample.getClass() == Object.class) {
      assertThat(back).isNotSameAs(sample);
    } else if (overridesEquals(sample.getClass())) {
      assertThat(back).isEqualTo(sample);
    } else {
      assertThat(back).hasToString(sample.toString());
    }
  }

  private static boolean overridesEquals(Class<?> c) {
    try {
      return c.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
    } catch (NoSuchMethodException e) {
      throw new AssertionError(e);
    }
  }

}
