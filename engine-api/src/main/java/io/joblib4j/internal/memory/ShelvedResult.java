package io.joblib4j.internal.memory;

import io.joblib4j.CacheMetadata;
import io.joblib4j.CorruptCacheEntryException;
import io.joblib4j.CorruptFileException;
import io.joblib4j.Joblib;
import io.joblib4j.MemorizedResult;
import io.joblib4j.MissingCacheEntryException;
import io.joblib4j.MmapMode;
import io.joblib4j.UnsupportedFormatVersionException;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/** A stored result, loaded only when asked for; serializable, so it can travel to other JVMs. */
final class ShelvedResult implements MemorizedResult<Object> {
  @Serial private static final long serialVersionUID = 1L;
  private final CacheSettings settings;
  private final String folder;
  private final String key;
  private final String function;
  private final MmapMode mmapMode;
  private final LinkedHashSet<String> allowed;

  ShelvedResult(CacheSettings settings, String folder, String key, String function, MmapMode mmapMode,
      Set<String> allowed) {
    this.settings = settings;
    this.folder = folder;
    this.key = key;
    this.function = function;
    this.mmapMode = mmapMode;
    this.allowed = new LinkedHashSet<>(allowed);
  }

  private String entry() {
    return Layout.entry(folder, key);
  }

  @Override
  public Object get() {
    Store store = settings.store();
    String entry = entry();
    try {
      Object loaded = StoredOutput.load(store, entry, mmapMode, settings.loadOptions(mmapMode, allowed))
          .orElseThrow(() -> missing(store));
      return CachedOutput.valueFor(loaded, key, entry);
    } catch (CorruptFileException | UnsupportedFormatVersionException | ClassCastException e) {
      throw new CorruptCacheEntryException("The cache entry of " + function + " at " + store.location() + "/"
          + entry + " seems corrupted (" + e.getMessage() + "); clear() it and compute it again", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + store.location() + "/" + entry, e);
    }
  }

  private MissingCacheEntryException missing(Store store) {
    return new MissingCacheEntryException("Non-existing cache entry for " + function + " (key " + key + ") in "
        + store.location() + ": it may have been cleared or evicted");
  }

  @Override
  public void clear() {
    settings.checkWritable("clear the result of " + function);
    Store store = settings.store();
    try {
      store.delete(entry());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + store.location() + "/" + entry(), e);
    }
  }

  @Override
  public Optional<CacheMetadata> metadata() {
    try {
      return Optional.ofNullable(CachedFunction.readMetadata(settings.store(), entry()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String function() {
    return function;
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public String toString() {
    return "MemorizedResult(location=\"" + settings.location() + "\", func=\"" + function + "\", args_id=\"" + key + "\")";
  }
}
