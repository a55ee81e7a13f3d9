package io.joblib4j.internal.memory;

import io.joblib4j.CacheEntry;
import io.joblib4j.CacheMetadata;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.upkeep.Holdings;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The entries of a cache, from one listing of the store: each entry folder ({@code
 * <function folder>/<key>}) with the sizes of its files, its folder's time as the last access and its
 * {@code metadata.json}'s time as its creation. The function's name comes from its {@code
 * function.json} (one read per function, not per entry). A detailed listing also reads each entry's
 * {@code metadata.json} (arguments, duration, code version).
 */
public final class Catalog {
  private Catalog() {}

  /** An entry as the listing shows it, before it is complete. */
  private static final class Building {
    final String path;
    final String folder;
    final String key;
    final Instant dirTime;
    long size;
    Instant created;

    Building(String path, String folder, String key, Instant dirTime) {
      this.path = path;
      this.folder = folder;
      this.key = key;
      this.dirTime = dirTime;
    }

    /** A file directly in the entry's folder: its size counts, and metadata.json's time is the creation. */
    void add(StoreFile f, String p) {
      size += f.size();
      if (p.length() - path.length() - 1 == Layout.METADATA_FILE.length() && p.endsWith(Layout.METADATA_FILE)) {
        created = f.lastModified();
      }
    }
  }

  /**
   * The entries under {@code folder} (a function folder) or, for {@code ""}, of every function: one
   * listing per function folder, so that only one function's files are held at a time (a listing of
   * 100,000 entries is 300,000 files; held at once, the garbage collector copies them again and again).
   */
  public static List<CacheEntry> entries(Store store, String folder, boolean details) throws IOException {
    Map<String, Building> entries = new LinkedHashMap<>();
    if (!folder.isEmpty()) {
      addIfOurs(folder, store.list(folder), entries);
    } else {
      for (StoreFile top : store.children("")) {
        if (top.directory() && Layout.isFunctionFolderName(top.path())) {
          addIfOurs(top.path(), store.list(top.path()), entries);
        }
      }
    }
    Map<String, String> names = new HashMap<>();
    List<CacheEntry> out = new ArrayList<>(entries.size());
    for (Building b : entries.values()) {
      if (b.created == null) {
        continue; // no metadata.json: not an entry Memory published (Holdings), whatever its name
      }
      String name = names.computeIfAbsent(b.folder, f -> functionName(store, f));
      // the folder's time is the last access (every hit and Store.touch set it): what pruning orders by.
      // metadata.json's time is the creation, written a moment after the folder's time when published.
      Instant last = b.dirTime;
      Instant created = b.created.isBefore(last) ? b.created : last;
      CacheEntry e = new CacheEntry(name, b.folder, b.key, null, Map.of(), b.size, created, last, null, b.path);
      out.add(details ? withDetails(store, e) : e);
    }
    return out;
  }

  /** Adds the entries of {@code folder} if its listing shows it is a function's folder ({@link Holdings}). */
  private static void addIfOurs(String folder, List<StoreFile> files, Map<String, Building> entries) {
    if (Holdings.isFunctionFolder(folder, files)) {
      add(files, entries);
    }
  }

  /** Adds the entries among {@code files} (paths from the root) to {@code entries}. */
  private static void add(List<StoreFile> files, Map<String, Building> entries) {
    Map<String, Boolean> folders = new HashMap<>();
    // a store lists an entry's folder, then its files: they are added to it without a lookup
    Building current = null;
    for (StoreFile f : files) {
      String p = f.path();
      if (current != null && !f.directory() && p.length() > current.path.length() + 1
          && p.charAt(current.path.length()) == '/' && p.startsWith(current.path)
          && p.indexOf('/', current.path.length() + 1) < 0) {
        current.add(f, p);
        continue;
      }
      int slash = p.indexOf('/');
      if (slash <= 0) {
        continue;
      }
      String top = p.substring(0, slash);
      if (!folders.computeIfAbsent(top, Layout::isFunctionFolderName)) {
        continue;
      }
      int second = p.indexOf('/', slash + 1);
      if (second < 0) {
        if (f.directory() && Layout.isKey(p.substring(slash + 1))) {
          current = new Building(p, top, p.substring(slash + 1), f.lastModified());
          entries.put(p, current);
        }
        continue;
      }
      if (f.directory()) {
        continue;
      }
      Building b = entries.get(p.substring(0, second));
      if (b == null) {
        b = entries.computeIfAbsent(p.substring(0, second), k -> {
          String key = k.substring(slash + 1);
          return Layout.isKey(key) ? new Building(k, top, key, f.lastModified()) : null;
        });
        if (b == null) {
          continue;
        }
      }
      if (p.indexOf('/', second + 1) < 0) {
        b.add(f, p);
        current = b;
      } else {
        b.size += f.size(); // deeper (not Memory's layout): counted in the size all the same
      }
    }
  }

  /** {@code Memory.remove}: an entry or a function folder, nothing else. */
  public static boolean remove(CacheSettings settings, String path) throws IOException {
    String[] s = path.split("/", -1);
    Store store = settings.store();
    boolean shaped = s.length == 2 && Layout.isFunctionFolderName(s[0]) && Layout.isKey(s[1])
        || s.length == 1 && Layout.isFunctionFolderName(s[0]);
    if (shaped && !store.exists(path)) {
      return false; // gone already (another process removed it)
    }
    boolean entry = s.length == 2 && Layout.isKey(s[1]) && Layout.isFunctionFolder(store, s[0])
        && store.exists(Layout.metadata(path));
    boolean folder = s.length == 1 && Layout.isFunctionFolder(store, s[0]);
    if (!entry && !folder) {
      throw new IllegalArgumentException("\"" + path + "\" is neither a cache entry (<function folder>/<32 hex digits>"
          + " holding its metadata.json) nor a function's folder (holding its function.json); it is not Memory's and"
          + " was left as it is. List the cache (memory.entries()) for the paths it holds");
    }
    if (folder) {
      Layout.deleteFunctionFolder(store, path);
    } else {
      store.delete(path);
    }
    CachedFunction.forgetChecks(settings.location());
    MemoryLimits.forget(settings.location());
    return true;
  }

  /** {@code e} with what its {@code metadata.json} records; {@code e} itself if it cannot be read. */
  static CacheEntry withDetails(Store store, CacheEntry e) {
    MetadataJson.Read r = readMetadata(store, e.path());
    if (r == null) {
      return e;
    }
    CacheMetadata m = r.metadata();
    Instant created = m.computedAt() != null ? m.computedAt() : e.created();
    return new CacheEntry(m.function().isEmpty() ? e.function() : m.function(), e.functionFolder(), e.key(),
        m.codeVersion(), m.inputArguments(), e.sizeBytes(), created,
        e.lastAccess().isBefore(created) ? created : e.lastAccess(), m.duration(), e.path());
  }

  /**
   * An entry's {@code metadata.json} with its key parts, or null if it is missing or unreadable; for
   * callers to whom an entry they cannot read is as good as absent (a listing's details, explain).
   */
  static MetadataJson.Read readMetadata(Store store, String entry) {
    try {
      return readMetadataOrThrow(store, entry);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * An entry's {@code metadata.json} with its key parts; null if it is missing or does not parse (the
   * entry is unusable, as a damaged one is). Throws if it cannot be read: a store out of reach, a
   * permission denied, which say nothing about the entry.
   */
  static MetadataJson.Read readMetadataOrThrow(Store store, String entry) throws IOException {
    Optional<InputStream> in = store.open(Layout.metadata(entry));
    if (in.isEmpty()) {
      return null;
    }
    byte[] json;
    try (InputStream s = in.get()) {
      json = s.readAllBytes();
    }
    try {
      return MetadataJson.readWithParts(new java.io.ByteArrayInputStream(json));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The function's short name from its {@code function.json}, else from its folder's name. */
  static String functionName(Store store, String folder) {
    try {
      Optional<InputStream> in = store.open(Layout.functionFile(folder));
      if (in.isPresent()) {
        try (InputStream s = in.get()) {
          String name = MetadataJson.readFunctionName(s);
          if (name != null && !name.isEmpty()) {
            return name;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // the folder's name will do
    }
    String readable = folder.substring(0, folder.lastIndexOf('-'));
    int last = readable.lastIndexOf('.');
    int before = last > 0 ? readable.lastIndexOf('.', last - 1) : -1;
    return before >= 0 ? readable.substring(before + 1) : readable;
  }

  /** Never null: a duration for sums. */
  static Duration orZero(Duration d) {
    return d == null ? Duration.ZERO : d;
  }
}
