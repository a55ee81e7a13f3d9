package io.joblib4j.internal.memory;

import io.joblib4j.CacheMetadata;
import io.joblib4j.CacheValidation;
import io.joblib4j.CallResult;
import io.joblib4j.Compress;
import io.joblib4j.CorruptFileException;
import io.joblib4j.Joblib;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.UnsafeClassException;
import io.joblib4j.UnsupportedFormatVersionException;
import io.joblib4j.internal.Sneaky;
import io.joblib4j.internal.fn.Invoke;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.support.Warnings;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One memoized function: its options, and the cache protocol every call goes through.
 *
 * <ul>
 *   <li>A hit loads the entry's output (memory-mapped if asked), checks that it belongs to this
 *       call's key, and records the access. A damaged entry is deleted, warned about and
 *       recomputed; a result whose classes are not allowed is recomputed with a warning saying how
 *       to allow them.
 *   <li>A miss computes, then publishes the entry (output and metadata.json) atomically and only if
 *       absent. A result that cannot be stored is returned anyway, with a warning.
 *   <li>On first use in a JVM, the function's {@code function.json} is compared with its current
 *       code version; entries of older code are cleared.
 * </ul>
 */
final class CachedFunction implements Serializable {
  @Serial private static final long serialVersionUID = 1L;
  /** Functions whose folder was checked in this JVM: location + folder + code version. */
  private static final Set<String> CHECKED = ConcurrentHashMap.newKeySet();
  private static final Object MISS = new Object();

  final CacheSettings settings;
  final Object fn;
  final int arity;
  final CallOptions options;
  private transient volatile FunctionIdentity identity;
  private transient volatile CallKeys keys;
  private transient volatile LoadOptions[] loadOptions;

  CachedFunction(CacheSettings settings, Object fn, int arity, CallOptions options) {
    this.settings = settings;
    this.fn = fn;
    this.arity = arity;
    this.options = options;
  }

  /** Fails now if options do not fit the function (an ignored name it does not have, ...). */
  void checkOptions() {
    keys();
  }

  /** Forgets which functions were checked against {@code location}'s function.json files. */
  static void forgetChecks(String location) {
    CHECKED.removeIf(k -> k.startsWith(location + "|"));
  }

  CachedFunction with(CallOptions newOptions) {
    return new CachedFunction(settings, fn, arity, newOptions);
  }

  FunctionIdentity identity() {
    FunctionIdentity id = identity;
    if (id == null) {
      id = FunctionIdentity.of(fn, arity);
      identity = id;
    }
    return id;
  }

  private CallKeys keys() {
    CallKeys k = keys;
    if (k == null) {
      k = new CallKeys(identity(), arity, options);
      keys = k;
    }
    return k;
  }

  boolean enabled() {
    return settings.location() != null;
  }

  // ---- the calls ------------------------------------------------------------------------------

  Object apply(Object[] args) {
    if (!enabled()) {
      return compute(args);
    }
    Store store = storeOrWarn();
    if (store == null) {
      return compute(args);
    }
    String key = keys().key(args);
    String entry = Layout.entry(identity().folder(), key);
    io.joblib4j.MissReason[] why = new io.joblib4j.MissReason[1];
    Object hit = load(store, entry, key, args, false, why);
    if (hit != MISS) {
      settings.stats().hit();
      return hit;
    }
    settings.stats().miss(why[0] != null ? why[0] : noEntryReason(store));
    return computeOnce(store, entry, key, args).value();
  }

  CallResult<Object> call(Object[] args) {
    if (!enabled()) {
      return new CallResult<>(compute(args), null);
    }
    Store store = storeOrWarn();
    if (store == null) {
      return new CallResult<>(compute(args), null);
    }
    String key = keys().key(args);
    String entry = Layout.entry(identity().folder(), key);
    deleteQuietly(store, entry); // call() recomputes and replaces what was stored
    return computeAndStore(store, entry, key, args);
  }

  io.joblib4j.MemorizedResult<Object> callAndShelve(Object[] args) {
    if (!enabled()) {
      return new ValueResult(compute(args), identity().name());
    }
    Store store = storeOrWarn();
    if (store == null) {
      return new ValueResult(compute(args), identity().name());
    }
    String key = keys().key(args);
    String entry = Layout.entry(identity().folder(), key);
    if (!present(store, entry)) {
      Outcome computed = computeOnce(store, entry, key, args);
      if (!computed.stored()) {
        return new ValueResult(computed.value(), identity().name()); // could not be stored
      }
    }
    return new ShelvedResult(settings, identity().folder(), key, identity().name(), effectiveMmapMode(),
        allowedForResults());
  }

  boolean checkCallInCache(Object[] args) {
    if (!enabled()) {
      return false;
    }
    Store store = storeOrWarn();
    if (store == null) {
      return false;
    }
    String entry = Layout.entry(identity().folder(), keys().key(args));
    return present(store, entry);
  }

  void clear() {
    if (!enabled()) {
      return;
    }
    settings.checkWritable("clear " + identity().name());
    Store store = settings.store();
    try {
      Layout.deleteFunctionFolder(store, identity().folder());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear " + identity().name() + " in " + store.location(), e);
    }
    CHECKED.removeIf(k -> k.startsWith(settings.location() + "|" + identity().folder() + "|"));
    MemoryLimits.forget(settings.location());
  }

  /** This function's entries, with what their metadata.json records. */
  io.joblib4j.CacheListing entries() {
    if (!enabled()) {
      return new io.joblib4j.CacheListing(null, List.of());
    }
    Store store = settings.store();
    try {
      return new io.joblib4j.CacheListing(settings.location(), Catalog.entries(store, identity().folder(), true));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the entries of " + identity().name() + " in " + store.location(), e);
    }
  }

  /** Why a call with {@code args} would miss, against the closest stored entry. */
  io.joblib4j.MissExplanation explain(Object[] args) {
    String call = identity().name() + "(" + CallKeys.joined(args) + ")";
    if (!enabled()) {
      return new io.joblib4j.MissExplanation(call + " [caching disabled]", false, Optional.empty(), List.of());
    }
    Store store = settings.store();
    try {
      return Explainer.explain(store, identity(), keys(), args, call);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot explain " + call + " from " + store.location(), e);
    }
  }

  // ---- the protocol ---------------------------------------------------------------------------

  /** Whether a usable entry exists; an invalid one is deleted (joblib's check_call_in_cache). */
  private boolean present(Store store, String entry) {
    try {
      if (!store.exists(Layout.output(entry))) {
        return false;
      }
      if (options.validation() != null) {
        CacheMetadata m = readMetadata(store, entry);
        if (m == null || !options.validation().isValid(m, settings.clock())) {
          deleteQuietly(store, entry);
          return false;
        }
      }
      return true;
    } catch (IOException | RuntimeException e) {
      warnStore(store, e);
      return false;
    }
  }

  /** The cached value, or {@link #MISS}. */
  private Object load(Store store, String entry, String key, Object[] args, boolean justStored) {
    return load(store, entry, key, args, justStored, null);
  }

  /** The cached value, or {@link #MISS} with {@code why[0]} set when the entry was there but unusable. */
  private Object load(Store store, String entry, String key, Object[] args, boolean justStored,
      io.joblib4j.MissReason[] why) {
    OpenReads.begin(settings.location(), entry);
    try {
      if (!justStored && options.validation() != null) {
        CacheMetadata m = readMetadata(store, entry);
        if (m == null) {
          return MISS;
        }
        if (!options.validation().isValid(m, settings.clock())) {
          deleteQuietly(store, entry);
          reason(why, io.joblib4j.MissReason.EXPIRED);
          return MISS;
        }
      }
      MmapMode mode = effectiveMmapMode();
      Optional<Object> loaded = StoredOutput.load(store, entry, mode, loadOptions(mode));
      if (loaded.isEmpty()) {
        return MISS;
      }
      Object value = CachedOutput.valueFor(loaded.get(), key, entry);
      touch(store, entry);
      if (verbose() > 1) {
        Printer.loading(identity().name(), args, store.location() + "/" + entry, verbose());
      }
      return value;
    } catch (UnsafeClassException e) {
      Warnings.warn(CachedFunction.class, "the cached result of " + identity().name() + " holds a class the"
          + " allow-list refuses, so it was recomputed: " + e.getMessage()
          + " For Memory, allow it with Memory.builder(...).allow(TheClass.class) or cache(fn).allow(TheClass.class).");
      reason(why, io.joblib4j.MissReason.DAMAGED);
      return MISS;
    } catch (CorruptFileException | UnsupportedFormatVersionException | ClassCastException e) {
      Warnings.warn(CachedFunction.class, "Exception while loading results for " + identity().name()
          + " from " + store.location() + "/" + entry + "; the entry was " + (settings.readOnly()
          ? "left as it is (a read-only Memory)" : "deleted") + " and the result is recomputed: " + e.getMessage());
      deleteQuietly(store, entry);
      reason(why, io.joblib4j.MissReason.DAMAGED);
      return MISS;
    } catch (IOException | UncheckedIOException e) {
      warnStore(store, e);
      return MISS;
    } finally {
      OpenReads.end(settings.location(), entry);
    }
  }

  private static void reason(io.joblib4j.MissReason[] why, io.joblib4j.MissReason r) {
    if (why != null) {
      why[0] = r;
    }
  }

  /** Folders whose function.json records other code than this JVM's: location + folder + code version. */
  private static final java.util.Map<String, Boolean> CODE_CHANGED = new ConcurrentHashMap<>();

  /**
   * Why a call found no entry: the function's code changed if its {@code function.json} records
   * another code version (read once per function in this JVM, until this JVM rewrites it), else
   * simply no entry.
   */
  private io.joblib4j.MissReason noEntryReason(Store store) {
    FunctionIdentity f = identity();
    String marker = settings.location() + "|" + f.folder() + "|" + f.codeVersion();
    if (CHECKED.contains(marker)) {
      return io.joblib4j.MissReason.NO_ENTRY;
    }
    boolean changed = CODE_CHANGED.computeIfAbsent(marker, m -> {
      String[] recorded = recordedFunction(store, f.folder());
      return recorded != null && recorded[0].equals(f.id()) && !recorded[1].equals(f.codeVersion())
          && !FunctionIdentity.UNKNOWN_VERSION.equals(f.codeVersion());
    });
    return changed ? io.joblib4j.MissReason.CODE_VERSION_CHANGED : io.joblib4j.MissReason.NO_ENTRY;
  }

  /** The (functionId, codeVersion) of a folder's function.json, or null if it has none readable. */
  static String[] recordedFunction(Store store, String folder) {
    try {
      Optional<InputStream> in = store.open(Layout.functionFile(folder));
      if (in.isEmpty()) {
        return null;
      }
      try (InputStream s = in.get()) {
        return MetadataJson.readFunction(s);
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** A result, and whether it is stored (so that others can load their own copy). */
  private record Outcome(Object value, boolean stored) {}

  /**
   * A miss: computed once however many threads of this JVM miss the entry at the same time (the
   * others wait and load what it stored, see {@link InFlight}), and with claims once per store.
   */
  private Outcome computeOnce(Store store, String entry, String key, Object[] args) {
    return InFlight.once(settings.location() + "|" + entry, () -> lead(store, entry, key, args), led -> {
      if (led.stored()) {
        Object mine = load(store, entry, key, args, false); // each thread its own copy, mapped if asked
        if (mine != MISS) {
          return new Outcome(mine, true);
        }
      }
      return led; // it could not be stored (or vanished since): the value the leader got
    });
  }

  /** This thread computes the entry: after one more look, and under a claim if the Memory takes them. */
  private Outcome lead(Store store, String entry, String key, Object[] args) {
    Claims claims = settings.claims();
    if (claims != null && !settings.readOnly()) {
      return claims.compute(store, entry, MISS, () -> load(store, entry, key, args, false),
          () -> stored(computeAndStore(store, entry, key, args)), v -> new Outcome(v, true));
    }
    // a leader that finished between this thread's miss and its turn may have stored it already
    Object hit = load(store, entry, key, args, false);
    return hit != MISS ? new Outcome(hit, true) : stored(computeAndStore(store, entry, key, args));
  }

  private static Outcome stored(CallResult<Object> r) {
    return new Outcome(r.value(), r.metadata() != null);
  }

  private CallResult<Object> computeAndStore(Store store, String entry, String key, Object[] args) {
    if (verbose() > 0) {
      Printer.calling(identity().name(), args);
    }
    long t0 = System.nanoTime();
    Object value = compute(args);
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    Instant at = settings.clock().instant();
    CacheMetadata metadata = null;
    try {
      if (!settings.readOnly()) { // a read-only Memory returns what it computed without storing it
        metadata = publish(store, entry, key, args, value, took, at);
      }
    } catch (ResultDump.Unstorable e) {
      // the value's problem: once a minute per function, not on each of its calls
      StoreTrouble.warnOnce(store.location() + "|" + identity().folder(), "Unable to cache the result of "
          + identity().name() + " in " + store.location() + ": it cannot be serialized ("
          + StoreTrouble.brief(e.getCause()) + "); its calls return their values without caching them.");
    } catch (IOException | RuntimeException e) {
      // the store's problem (down, read-only, full): once a minute per store, not on every call
      StoreTrouble.warnOnce(String.valueOf(store.location()), "Unable to cache the result of " + identity().name()
          + " in " + store.location() + " (" + StoreTrouble.brief(e) + "); calls return their values without"
          + " caching them. Check that the store is reachable, writable and has free space.");
    }
    if (verbose() > 0) {
      Printer.done(identity().name(), took);
    }
    if (metadata != null && effectiveMmapMode() != null) {
      // joblib: with mmap_mode even the first call returns the mapped result
      Object mapped = load(store, entry, key, args, true);
      if (mapped != MISS) {
        return new CallResult<>(mapped, metadata);
      }
    }
    return new CallResult<>(value, metadata);
  }

  private CacheMetadata publish(Store store, String entry, String key, Object[] args, Object value,
      Duration took, Instant at) throws IOException {
    ensureFunctionFolder(store);
    ResultDump dump = new ResultDump();
    Compress compress = options.compress() != null ? options.compress() : settings.compress();
    CacheMetadata[] written = new CacheMetadata[1];
    long[] metadataBytes = new long[1];
    CallHashes parts = keys().parts(args);
    EntryFile output = new EntryFile(Layout.OUTPUT_FILE, out -> dump.write(out, CachedOutput.of(key, value), compress));
    EntryFile metadata = new EntryFile(Layout.METADATA_FILE, out -> {
      written[0] = new CacheMetadata(identity().name(), identity().id(), identity().codeVersion(), key, at, took,
          keys().describe(args), dump.bytes(), dump.crcHex(),
          MetadataJson.FORMAT_VERSION);
      byte[] json = MetadataJson.write(written[0], parts);
      metadataBytes[0] = json.length;
      out.write(json);
    });
    Store.Publication p = store.publish(entry, List.of(output, metadata));
    if (p == Store.Publication.ALREADY_PRESENT) {
      CacheMetadata existing = readMetadata(store, entry);
      return existing != null ? existing : written[0];
    }
    settings.stats().stored();
    MemoryLimits.stored(settings, store, dump.bytes() + metadataBytes[0]);
    return written[0];
  }

  /** Compares {@code function.json} with the current code once per JVM; clears entries of older code. */
  private void ensureFunctionFolder(Store store) throws IOException {
    FunctionIdentity f = identity();
    String marker = settings.location() + "|" + f.folder() + "|" + f.codeVersion();
    if (CHECKED.contains(marker)) {
      return;
    }
    String path = Layout.functionFile(f.folder());
    Optional<InputStream> in = store.open(path);
    if (in.isPresent()) {
      String[] recorded;
      try (InputStream s = in.get()) {
        recorded = MetadataJson.readFunction(s);
      } catch (IOException e) {
        recorded = new String[] {"", ""};
      }
      if (!recorded[0].equals(f.id())) {
        Warnings.warn(CachedFunction.class, "Possible name collision between functions " + recorded[0]
            + " and " + f.id() + ": they share the cache folder " + f.folder());
      } else if (!recorded[1].equals(f.codeVersion()) && !FunctionIdentity.UNKNOWN_VERSION.equals(f.codeVersion())) {
        if (f.lambda()) {
          Warnings.warn(CachedFunction.class, "Cannot detect name collisions for " + f.name() + " ("
              + f.id() + "): its code changed, or another lambda of the class took its compiler-given name;"
              + " its cached results were cleared. A method reference gives a function a stable name.");
        } else if (verbose() > 10) {
          Printer.line("Function " + f.name() + " (identified by " + f.id() + ") has changed.");
        }
        for (String child : entriesOf(store, f.folder())) {
          deleteQuietly(store, child);
        }
      } else {
        CHECKED.add(marker);
        return;
      }
    }
    store.replace(path, MetadataJson.writeFunction(f));
    CHECKED.add(marker);
    CODE_CHANGED.remove(marker);
  }

  private static List<String> entriesOf(Store store, String folder) throws IOException {
    return store.list(folder).stream().filter(s -> s.directory() && Layout.isEntry(s.path()))
        .map(s -> s.path()).toList();
  }

  static CacheMetadata readMetadata(Store store, String entry) throws IOException {
    MetadataJson.Read r = Catalog.readMetadataOrThrow(store, entry);
    return r == null ? null : r.metadata(); // one that does not parse makes the entry unusable, like a missing one
  }

  private Object compute(Object[] args) {
    try {
      return Invoke.call(fn, args);
    } catch (Exception e) {
      throw Sneaky.rethrow(e); // never cached
    }
  }

  private void touch(Store store, String entry) {
    if (settings.readOnly()) {
      return;
    }
    java.time.Instant now = settings.clock().instant();
    if (!AccessLog.due(settings.location(), entry, now)) {
      return;
    }
    try {
      store.touch(entry, now);
    } catch (IOException | RuntimeException e) {
      // the access time only orders reduceSize; a failure to record it is not worth a warning
    }
  }

  /** Deletes a damaged, expired or replaced entry; a read-only Memory leaves it (its calls compute). */
  private void deleteQuietly(Store store, String path) {
    if (settings.readOnly()) {
      return;
    }
    try {
      store.delete(path);
    } catch (IOException | RuntimeException e) {
      warnStore(store, e);
    }
  }

  private Store storeOrWarn() {
    try {
      return settings.store();
    } catch (RuntimeException e) {
      StoreTrouble.warn(settings.location(), e);
      return null;
    }
  }

  private void warnStore(Store store, Exception e) {
    StoreTrouble.warn(String.valueOf(store.location()), e);
  }

  private MmapMode effectiveMmapMode() {
    MmapMode m = options.mmapMode() != null ? options.mmapMode() : settings.mmapMode();
    Compress c = options.compress() != null ? options.compress() : settings.compress();
    return c.equals(Compress.none()) ? m : null;
  }

  /** Load options per mmap mode, built once: a hit must not rebuild the allow-list. */
  private LoadOptions loadOptions(MmapMode mode) {
    LoadOptions[] cached = loadOptions;
    if (cached == null) {
      cached = new LoadOptions[MmapMode.values().length + 1];
      loadOptions = cached;
    }
    int slot = mode == null ? 0 : mode.ordinal() + 1;
    LoadOptions o = cached[slot];
    if (o == null) {
      o = settings.loadOptions(mode, allowedForResults());
      cached[slot] = o;
    }
    return o;
  }

  private Set<String> allowedForResults() {
    return options.allowedWith(identity().resultType());
  }

  private int verbose() {
    return options.verbose() != null ? options.verbose() : settings.verbose();
  }
}
