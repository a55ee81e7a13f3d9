package io.joblib4j.internal.memory;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.Stores;
import io.joblib4j.spi.upkeep.Sweep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stores open in this JVM, one per location, shared by every {@code Memory} and memoized
 * function pointing there — including copies deserialized on child JVMs and Spark executors, which
 * reopen the location they carry. Each store is prepared once: a {@code .gitignore} at its root
 * (never overwritten), and a sweep of temporaries left by writers that died.
 */
final class StoreHandles {
  private static final Map<String, Store> OPEN = new ConcurrentHashMap<>();
  private static final java.util.Set<Store> PREPARED = ConcurrentHashMap.newKeySet();

  private StoreHandles() {}

  static Store open(String location, Map<String, Object> options) {
    return prepared(handle(location, options));
  }

  /**
   * The store at {@code location}, not prepared: for a read-only Memory, which must not write. A
   * local folder that does not exist is not created (a local store would create it).
   */
  static Store openAsIs(String location, Map<String, Object> options) {
    Store open = OPEN.get(location + " " + options);
    if (open != null) {
      return open;
    }
    Optional<Path> local = Locations.localFolder(location);
    if (local.isPresent() && !Files.isDirectory(local.get())) {
      throw new UncheckedIOException(new NoSuchFileException(local.get().toString(), null,
          "no cache folder there; a read-only Memory does not create one"));
    }
    return handle(location, options);
  }

  private static Store handle(String location, Map<String, Object> options) {
    return OPEN.computeIfAbsent(location + " " + options, k -> Stores.open(location, options));
  }

  /** Makes a store the user built the one its location maps to in this JVM. */
  static void adopt(Store store) {
    OPEN.putIfAbsent(store.location() + " " + Map.of(), store);
  }

  /** {@code store}, prepared the first time it is used; a store that cannot be reached is retried next time. */
  static Store prepared(Store store) {
    if (PREPARED.contains(store)) {
      return store;
    }
    try {
      if (!store.exists(Layout.GITIGNORE)) {
        store.replace(Layout.GITIGNORE, Layout.GITIGNORE_CONTENT.getBytes(StandardCharsets.UTF_8));
      }
      Sweep.temporaries(store);
      PREPARED.add(store);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the cache at " + store.location() + ": " + e.getMessage(), e);
    }
    return store;
  }
}
