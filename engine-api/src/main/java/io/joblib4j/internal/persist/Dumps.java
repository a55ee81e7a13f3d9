package io.joblib4j.internal.persist;

import io.joblib4j.Compress;
import io.joblib4j.internal.persist.npy.NumpyFiles;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code dump} with a {@link Compress} setting, resolved to a codec and level the way joblib does
 * (a file's extension can pick the codec): what {@code Joblib.dump} and {@code Memory}'s entries
 * both write through.
 */
public final class Dumps {
  private Dumps() {}

  /** Writes {@code value} to {@code file}, compressed as {@code compress} says for that file name. */
  public static void toFile(Object value, Path file, Compress compress) {
    if (NumpyFiles.isNumpyName(file)) {
      NumpyFiles.dump(value, file, compress); // numpy's .npy / .npz, which numpy reads
      return;
    }
    Optional<Compress.Choice> c = compress.resolve(file.getFileName().toString());
    Persistence.dump(value, file, c.map(Compress.Choice::compressor).orElse(null),
        c.map(Compress.Choice::level).orElse(0));
  }

  /** Writes {@code value} to {@code out} (flushed, not closed), compressed as {@code compress} says. */
  public static void toStream(Object value, OutputStream out, Compress compress) {
    Optional<Compress.Choice> c = compress.resolve(null);
    Persistence.dump(value, out, c.map(Compress.Choice::compressor).orElse(null),
        c.map(Compress.Choice::level).orElse(0));
  }
}
