package io.joblib4j;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Options for {@link Joblib#load(java.nio.file.Path, LoadOptions)}: memory mapping and its check,
 * the class allow-list, and resource limits.
 *
 * <p>By default {@code load} accepts only data: boxed primitives, {@code String}, {@code
 * BigInteger}/{@code BigDecimal}, primitive and object arrays, the {@code java.util} and {@code
 * java.util.concurrent} collections (ArrayList to TreeMap, IdentityHashMap, PriorityQueue and the
 * sorted collections in natural order, ConcurrentHashMap, ConcurrentSkipListMap, the copy-on-write
 * and blocking queues, the JDK's immutable and wrapped collections), {@code Optional}, {@code
 * UUID}, {@code java.time} values, enums, records (whose values are themselves accepted), and
 * joblib4j's own types such as {@link io.joblib4j.array.NDArray}. Any other class (a comparator
 * among them) is refused <em>before</em> an instance is created, with an {@link
 * UnsafeClassException}. To accept more:
 *
 * <pre>{@code
 * Model m = Joblib.load(path, LoadOptions.builder()
 *     .allow(Model.class, Layer.class)        // these exact classes
 *     .allowPackages("com.acme.ml")            // and everything in this package and below
 *     .build());
 * Model mine = Joblib.load(path, LoadOptions.trusted()); // a file I wrote myself: anything goes
 * NDArray big = Joblib.load(path, LoadOptions.builder().mmapMode(MmapMode.READ_ONLY).build());
 * }</pre>
 *
 * <p><b>Limits.</b> A load builds at most {@link #maxHeapBytes()} of heap and decompresses at most
 * {@link #maxDecompressedBytes()}; both default to half the maximum heap, and a file over either is
 * refused with a {@link CorruptFileException} that names the limit, what was found and how to raise
 * it. Set them per load with the builder, or for the whole JVM (what {@link Memory} loads included)
 * with {@code -Djoblib4j.load.maxHeapBytes=6G} and {@code -Djoblib4j.load.maxDecompressedBytes=6G}.
 *
 * <p>Immutable; build with {@link #builder()}.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class LoadOptions {
  /** The system property giving the default {@link #maxHeapBytes()}, e.g. {@code -Djoblib4j.load.maxHeapBytes=6G}. */
  public static final String MAX_HEAP_BYTES_PROPERTY = "joblib4j.load.maxHeapBytes";
  /** The system property giving the default {@link #maxDecompressedBytes()}. */
  public static final String MAX_DECOMPRESSED_BYTES_PROPERTY = "joblib4j.load.maxDecompressedBytes";
  private static final long DEFAULT_MAX_HEAP_BYTES =
      configured(MAX_HEAP_BYTES_PROPERTY, "JOBLIB4J_LOAD_MAX_HEAP_BYTES");
  private static final long DEFAULT_MAX_DECOMPRESSED_BYTES =
      configured(MAX_DECOMPRESSED_BYTES_PROPERTY, "JOBLIB4J_LOAD_MAX_DECOMPRESSED_BYTES");
  private static final LoadOptions DEFAULTS = builder().build();

  private final MmapMode mmapMode;
  private final Set<String> allowedClasses;
  private final Set<String> allowedPackages;
  private final boolean trusted;
  private final long maxDecompressedBytes;
  private final long maxHeapBytes;
  private final int maxDepth;
  private final boolean verifyMappedData;

  private LoadOptions(Builder b) {
    this.mmapMode = b.mmapMode;
    this.allowedClasses = Collections.unmodifiableSet(new LinkedHashSet<>(b.allowedClasses));
    this.allowedPackages = Collections.unmodifiableSet(new LinkedHashSet<>(b.allowedPackages));
    this.trusted = b.trusted;
    this.maxDecompressedBytes = b.maxDecompressedBytes;
    this.maxHeapBytes = b.maxHeapBytes;
    this.maxDepth = b.maxDepth;
    this.verifyMappedData = b.verifyMappedData;
  }

  /**
   * The defaults: no mapping, the default allow-list, the default limits.
   *
   * @return the default options
   */
  public static LoadOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Accept any class: for files you produced yourself. Loading an untrusted file this way can run
   * arbitrary code, exactly like Java serialization or Python's pickle.
   *
   * @return options accepting every class, with the default limits
   */
  public static LoadOptions trusted() {
    return builder().trusted().build();
  }

  /**
   * A builder starting from the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder starting from these options.
   *
   * @return a new builder holding these options
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.mmapMode = mmapMode;
    b.allowedClasses.addAll(allowedClasses);
    b.allowedPackages.addAll(allowedPackages);
    b.trusted = trusted;
    b.maxDecompressedBytes = maxDecompressedBytes;
    b.maxHeapBytes = maxHeapBytes;
    b.maxDepth = maxDepth;
    b.verifyMappedData = verifyMappedData;
    return b;
  }

  /**
   * How to map array data.
   *
   * @return the mode, or empty to read everything into memory
   */
  public Optional<MmapMode> mmapMode() {
    return Optional.ofNullable(mmapMode);
  }

  /**
   * Binary names of the classes accepted beyond the defaults.
   *
   * @return an unmodifiable set
   */
  public Set<String> allowedClasses() {
    return allowedClasses;
  }

  /**
   * Packages (and their sub-packages) whose classes are accepted beyond the defaults.
   *
   * @return an unmodifiable set of package names
   */
  public Set<String> allowedPackages() {
    return allowedPackages;
  }

  /**
   * Whether every class is accepted.
   *
   * @return true for {@link #trusted()} options
   */
  public boolean isTrusted() {
    return trusted;
  }

  /**
   * The most bytes a compressed file or a stream may decompress to (what the codec produces, the
   * container's own framing included). Default: half the JVM's maximum heap, or the system property
   * {@value #MAX_DECOMPRESSED_BYTES_PROPERTY} (a byte size such as {@code 2G}; environment variable
   * {@code JOBLIB4J_LOAD_MAX_DECOMPRESSED_BYTES}) when set at start-up.
   *
   * @return the limit in bytes
   */
  public long maxDecompressedBytes() {
    return maxDecompressedBytes;
  }

  /**
   * The most heap one load may build, as estimated while it decodes: array data read into memory,
   * and for every other value its object header, fields and collection slots (an empty HashMap in
   * a list counts some 55 bytes, although the file spends 3 bytes on it). A file that would build
   * more is refused with a {@link CorruptFileException} naming this limit as soon as the estimate
   * passes it, before the heap fills, so that other threads of the JVM keep working. Memory-mapped
   * arrays do not count. Default: half the JVM's maximum heap, or the system property {@value
   * #MAX_HEAP_BYTES_PROPERTY} (a byte size such as {@code 6G}; environment variable {@code
   * JOBLIB4J_LOAD_MAX_HEAP_BYTES}) when set at start-up, which also applies to what {@link Memory}
   * loads.
   *
   * <p>The loads in progress at the same time share that default as one budget, so that several
   * files decoding at once cannot fill the heap together: a load that would take the total past it
   * (or past its own limit, when that is larger) while others are building fails with a {@link
   * JoblibException} saying so, which is not a {@link CorruptFileException} (the file may well load
   * alone). A load alone is bounded by its own limit only.
   *
   * @return the limit in bytes
   */
  public long maxHeapBytes() {
    return maxHeapBytes;
  }

  /**
   * How deeply values may nest (lists in maps in records ...); deeper files are refused.
   *
   * @return the most levels, 256 by default
   */
  public int maxDepth() {
    return maxDepth;
  }

  /**
   * Whether a memory-mapped load checks the array data against its CRC32Cs, as a heap load always
   * does. Default true. The check is lazy: each 1 MiB block is checked the first time it is read
   * (the map itself reads nothing of the data). Files written before joblib4j kept block sums are
   * checked whole, once per version of a file per JVM (the same path, size, modification time and
   * file key, e.g. the inode), so mapping the same file again costs a few system calls, not a read;
   * such a file modified less than two seconds before it was checked is checked again on its next
   * map, since file times are too coarse to tell a change made in the same instant apart.
   *
   * @return false when mapped array data is served unchecked (see {@link
   *     Builder#verifyMappedData(boolean)})
   */
  public boolean verifyMappedData() {
    return verifyMappedData;
  }

  @Override
  public String toString() {
    return "LoadOptions{mmapMode=" + mmapMode + ", trusted=" + trusted + ", allowedClasses="
        + allowedClasses + ", allowedPackages=" + allowedPackages + ", maxDecompressedBytes="
        + maxDecompressedBytes + ", maxHeapBytes=" + maxHeapBytes + ", maxDepth=" + maxDepth + ", verifyMappedData=" + verifyMappedData + "}";
  }

  /** Half the maximum heap, unless the property or environment variable says otherwise. */
  private static long configured(String property, String environment) {
    String text = System.getProperty(property, System.getenv(environment));
    long half = Math.max(1, Runtime.getRuntime().maxMemory() / 2);
    if (text == null || text.isBlank()) {
      return half;
    }
    try {
      long bytes = io.joblib4j.spi.support.ByteSizes.parse(text);
      if (bytes > 0) {
        return bytes;
      }
    } catch (IllegalArgumentException e) {
      // said below
    }
    io.joblib4j.spi.support.Warnings.warn(LoadOptions.class, property + " (or " + environment + ") is \"" + text
        + "\", which is not a positive byte size such as 6G: using half the maximum heap, " + half + " bytes");
    return half;
  }

  /** Builds {@link LoadOptions}. */
  @API(status = API.Status.STABLE, since = "0.1")
  public static final class Builder {
    private MmapMode mmapMode;
    private final Set<String> allowedClasses = new LinkedHashSet<>();
    private final Set<String> allowedPackages = new LinkedHashSet<>();
    private boolean trusted;
    private long maxDecompressedBytes = DEFAULT_MAX_DECOMPRESSED_BYTES;
    private long maxHeapBytes = DEFAULT_MAX_HEAP_BYTES;
    private int maxDepth = 256;
    private boolean verifyMappedData = true;

    private Builder() {}

    /**
     * Map array data in this mode.
     *
     * @param mode the mode, or {@code null} to read into memory
     * @return this builder
     */
    public Builder mmapMode(MmapMode mode) {
      this.mmapMode = mode;
      return this;
    }

    /**
     * Map array data in this joblib mode: {@code "r"}, {@code "r+"}, {@code "w+"}, {@code "c"}.
     *
     * @param joblibMode the mode, or {@code null} to read into memory
     * @return this builder
     */
    public Builder mmapMode(String joblibMode) {
      return mmapMode(joblibMode == null ? null : MmapMode.fromJoblib(joblibMode));
    }

    /**
     * Accept these classes too (and arrays of them).
     *
     * @param classes the classes
     * @return this builder
     */
    public Builder allow(Class<?>... classes) {
      for (Class<?> c : classes) {
        allowedClasses.add(Objects.requireNonNull(c, "class").getName());
      }
      return this;
    }

    /**
     * Accept the classes of these binary names too, e.g. {@code "com.acme.Model$Layer"}.
     *
     * @param names binary class names
     * @return this builder
     */
    public Builder allowClassNames(String... names) {
      allowedClasses.addAll(Arrays.asList(names));
      return this;
    }

    /**
     * Accept every class in these packages and their sub-packages, e.g. {@code "com.acme.ml"}.
     *
     * @param packages package names
     * @return this builder
     * @throws IllegalArgumentException for an empty package name (use {@link #trusted()})
     */
    public Builder allowPackages(String... packages) {
      for (String p : packages) {
        String name = Objects.requireNonNull(p, "package").endsWith(".") ? p.substring(0, p.length() - 1) : p;
        if (name.isEmpty()) {
          throw new IllegalArgumentException("allowPackages(\"\") would accept every class;"
              + " use trusted() if that is what you mean");
        }
        allowedPackages.add(name);
      }
      return this;
    }

    /**
     * Accept any class (see {@link LoadOptions#trusted()}).
     *
     * @return this builder
     */
    public Builder trusted() {
      this.trusted = true;
      return this;
    }

    /**
     * See {@link LoadOptions#maxDecompressedBytes()}.
     *
     * @param bytes the most bytes a compressed file or stream may decompress to; must be positive
     * @return this builder
     */
    public Builder maxDecompressedBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("maxDecompressedBytes must be positive, got " + bytes);
      }
      this.maxDecompressedBytes = bytes;
      return this;
    }

    /**
     * See {@link LoadOptions#maxHeapBytes()}.
     *
     * @param bytes the most heap a load may build; must be positive
     * @return this builder
     */
    public Builder maxHeapBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("maxHeapBytes must be positive, got " + bytes);
      }
      this.maxHeapBytes = bytes;
      return this;
    }

    /**
     * See {@link LoadOptions#maxDepth()}.
     *
     * @param depth the most levels of nesting; must be in 1..10000 (beyond a few thousand, the
     *     loading thread needs a larger stack)
     * @return this builder
     */
    public Builder maxDepth(int depth) {
      if (depth < 1 || depth > 10_000) {
        throw new IllegalArgumentException("maxDepth must be in 1..10000, got " + depth);
      }
      this.maxDepth = depth;
      return this;
    }

    /**
     * Whether mapped array data is checked against its CRC32C before it is handed out (default
     * true; see {@link LoadOptions#verifyMappedData()}). {@code false} gives unchecked maps: no
     * block is checked when it is read (nor an old-format file when it is mapped), and a damaged
     * array is served as it is, exactly like {@code np.load(mmap_mode="r")}. The file's framing and its other records are still checked.
     *
     * @param verify false to serve mapped data unchecked
     * @return this builder
     */
    public Builder verifyMappedData(boolean verify) {
      this.verifyMappedData = verify;
      return this;
    }

    /**
     * The options.
     *
     * @return immutable options
     */
    public LoadOptions build() {
      return new LoadOptions(this);
    }
  }
}
