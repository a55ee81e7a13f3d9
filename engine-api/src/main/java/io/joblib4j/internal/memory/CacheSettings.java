package io.joblib4j.internal.memory;

import io.joblib4j.Compress;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.spi.Store;
import java.io.Serial;
import java.io.Serializable;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A {@code Memory}'s settings. Serializable: the store itself is not, so a deserialized copy (on a
 * child JVM or a Spark executor) reopens the store from its location, once per JVM.
 */
public final class CacheSettings implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  private final String location;
  private final transient Store givenStore;
  private final LinkedHashMap<String, Object> storeOptions;
  private final int verbose;
  private final Compress compress;
  private final MmapMode mmapMode;
  private final Clock clock;
  private final LinkedHashSet<String> allowedClasses;
  private final LinkedHashSet<String> allowedPackages;
  private final boolean trusted;
  private final Claims claims;
  /** The limits' parts (CacheLimits itself is not serializable); all null for none. */
  private final Long limitBytes;
  private final Long limitItems;
  private final Duration limitAge;
  /** Never writes to the location ({@code Memory.Builder.readOnly()}). */
  private final boolean readOnly;
  /** This JVM's counts of this Memory's calls; a copy in another JVM counts its own. */
  private transient volatile Stats stats;

  public CacheSettings(String location, Store givenStore, Map<String, Object> storeOptions, int verbose,
      Compress compress, MmapMode mmapMode, Clock clock, Set<String> allowedClasses,
      Set<String> allowedPackages, boolean trusted, Duration claimLease, Duration claimWait) {
    this(location, givenStore, storeOptions, verbose, compress, mmapMode, clock, allowedClasses, allowedPackages,
        trusted, claimLease, claimWait, null);
  }

  public CacheSettings(String location, Store givenStore, Map<String, Object> storeOptions, int verbose,
      Compress compress, MmapMode mmapMode, Clock clock, Set<String> allowedClasses,
      Set<String> allowedPackages, boolean trusted, Duration claimLease, Duration claimWait,
      io.joblib4j.CacheLimits limits) {
    this(location, givenStore, storeOptions, verbose, compress, mmapMode, clock, allowedClasses, allowedPackages,
        trusted, claimLease, claimWait, limits, false);
  }

  public CacheSettings(String location, Store givenStore, Map<String, Object> storeOptions, int verbose,
      Compress compress, MmapMode mmapMode, Clock clock, Set<String> allowedClasses,
      Set<String> allowedPackages, boolean trusted, Duration claimLease, Duration claimWait,
      io.joblib4j.CacheLimits limits, boolean readOnly) {
    this.location = location;
    this.readOnly = readOnly;
    boolean none = limits == null || !limits.any();
    this.limitBytes = none ? null : limits.bytes();
    this.limitItems = none ? null : limits.items();
    this.limitAge = none ? null : limits.age();
    this.givenStore = givenStore;
    this.storeOptions = new LinkedHashMap<>(storeOptions);
    this.verbose = verbose;
    this.compress = compress;
    this.mmapMode = mmapMode;
    this.clock = clock;
    this.allowedClasses = new LinkedHashSet<>(allowedClasses);
    this.allowedPackages = new LinkedHashSet<>(allowedPackages);
    this.trusted = trusted;
    this.claims = claimLease == null ? null : new Claims(claimLease, claimWait);
    if (givenStore != null) {
      StoreHandles.adopt(givenStore);
    }
  }

  /** The location, or null when caching is disabled. */
  public String location() {
    return location;
  }

  /**
   * The store, opened on first use in this JVM and shared. A writing Memory prepares it first (a
   * {@code .gitignore}, a sweep of dead writers' temporaries); a read-only one leaves it as it is.
   */
  public Store store() {
    if (readOnly) {
      return givenStore != null ? givenStore : StoreHandles.openAsIs(location, storeOptions);
    }
    if (givenStore != null) {
      return StoreHandles.prepared(givenStore);
    }
    return StoreHandles.open(location, storeOptions);
  }

  /** Whether this Memory only reads its location ({@code Memory.Builder.readOnly()}). */
  public boolean readOnly() {
    return readOnly;
  }

  /**
   * Refuses what would change the cache in a read-only Memory.
   *
   * @throws IllegalStateException naming {@code what} and what to do instead
   */
  public void checkWritable(String what) {
    if (readOnly && location != null) {
      throw new IllegalStateException("cannot " + what + ": this Memory over " + location + " is read-only"
          + " (Memory.builder(...).readOnly() never writes to its location); build one without readOnly() to change"
          + " the cache");
    }
  }

  public int verbose() {
    return verbose;
  }

  public Compress compress() {
    return compress;
  }

  public MmapMode mmapMode() {
    return mmapMode;
  }

  public Clock clock() {
    return clock;
  }

  /** The limits kept after every store, or null for none. */
  public io.joblib4j.CacheLimits limits() {
    return limitBytes == null && limitItems == null && limitAge == null ? null
        : new io.joblib4j.CacheLimits(limitBytes, limitItems, limitAge);
  }

  /** This JVM's counters of this Memory's calls. */
  public Stats stats() {
    Stats s = stats;
    if (s == null) {
      synchronized (this) {
        s = stats;
        if (s == null) {
          s = new Stats();
          stats = s;
        }
      }
    }
    return s;
  }

  /** How computations are claimed across JVMs, or null if they are not. */
  Claims claims() {
    return claims;
  }

  /** Load options for results: the allow-list, extended with {@code extra} class names. */
  LoadOptions loadOptions(MmapMode mode, Set<String> extra) {
    LoadOptions.Builder b = LoadOptions.builder().mmapMode(mode);
    if (trusted) {
      b.trusted();
    }
    b.allowClassNames(allowedClasses.toArray(String[]::new));
    b.allowClassNames(extra.toArray(String[]::new));
    if (!allowedPackages.isEmpty()) {
      b.allowPackages(allowedPackages.toArray(String[]::new));
    }
    return b.build();
  }
}
