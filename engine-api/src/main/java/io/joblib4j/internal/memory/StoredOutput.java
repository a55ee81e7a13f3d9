package io.joblib4j.internal.memory;

import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.internal.persist.Persistence;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads an entry's {@code output.jl4j}: mapped from a local file (on the local store, from the
 * channel opened without following links; the load checks the mapped data once per version of the
 * file in a JVM, as {@code Joblib.load} does), or streamed, in which case the whole file must be the one container (bytes after its end
 * make the entry damaged, as a cut would). Errors name the entry's file by its path in the store.
 */
final class StoredOutput {
  private StoredOutput() {}

  /** The loaded container, or empty if the entry has no output (cleared or evicted meanwhile). */
  static Optional<Object> load(Store store, String entry, MmapMode mode, LoadOptions options) throws IOException {
    String output = Layout.output(entry);
    if (mode != null && store instanceof LocalStore local) {
      return loadMapped(local, entry, output, mode, options);
    }
    if (mode != null) {
      Optional<Path> file = store.localFile(output);
      if (file.isEmpty()) {
        return Optional.empty();
      }
      // the load checks the mapped data against its CRC32Cs lazily, block by block as it is read
      return Optional.of(Persistence.load(file.get(), options));
    }
    // on the local store, an output read before costs one stat (OutputCache)
    Optional<InputStream> in = store instanceof LocalStore local && local.stamps() ? OutputCache.open(local, output)
        : store.open(output);
    if (in.isEmpty()) {
      return Optional.empty();
    }
    try (InputStream s = in.get()) {
      // named by its path in the store (the warning adds the store): store.location() costs a stat
      return Optional.of(Persistence.loadWhole(SmallFirst.of(s), output, options));
    }
  }

  /**
   * A mapped hit on the local store: the file is opened without following links and mapped from
   * that very channel, so no link swapped in under the root between the check and the map is read.
   */
  private static Optional<Object> loadMapped(LocalStore local, String entry, String output, MmapMode mode,
      LoadOptions options) throws IOException {
    // a private (copy-on-write) mapping needs a channel open for writing, a JDK rule; nothing is written
    Optional<FileChannel> opened = local.openChannel(output, mode == MmapMode.COPY_ON_WRITE);
    if (opened.isEmpty()) {
      return Optional.empty();
    }
    Path file = local.root().resolve(output);
    try (FileChannel ch = opened.get()) {
      return Optional.of(Persistence.load(ch, file, options)); // checks the mapped data as it is read
    }
  }
}
