package io.joblib4j.internal.persist.npy;

import io.joblib4j.Compress;
import io.joblib4j.LoadOptions;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.LazyLogger;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * numpy's files through joblib4j's calls: what {@code Persistence} asks when a file or stream starts
 * with numpy's or a zip's magic, what {@code Dumps} asks for a file named {@code .npy} or {@code
 * .npz}, and what {@code NDArray.createMapped} asks for a {@code .npy}.
 */
public final class NumpyFiles {
  private static final LazyLogger LOG = LazyLogger.of(NumpyFiles.class);

  private NumpyFiles() {}

  /** Whether {@code head} (a file's first bytes) starts with numpy's {@code \x93NUMPY}. */
  public static boolean isNpy(byte[] head) {
    return NpyHeader.isNpy(head);
  }

  /** Whether {@code head} starts as a zip archive does (numpy's {@code .npz} is one). */
  public static boolean isZip(byte[] head) {
    return NpzArchives.isZip(head);
  }

  /** The {@code .npy} in {@code file}, open as {@code ch}: mapped in {@code options}' mmap mode, else read. */
  public static NDArray loadNpy(FileChannel ch, Path file, LoadOptions options) throws IOException {
    return NpyReader.load(ch, file, options);
  }

  /** The {@code .npy} at {@code in}'s position, read into memory; {@code in} is left after its data. */
  public static NDArray loadNpy(InputStream in, String source, LoadOptions options) throws IOException {
    return NpyReader.load(in, source, options);
  }

  /** The arrays of the {@code .npz} {@code file}, by key, read into memory (numpy does not map them either). */
  public static Map<String, NDArray> loadNpz(Path file, LoadOptions options) throws IOException {
    if (options.mmapMode().isPresent()) {
      LOG.get().warn("{} is a numpy .npz archive: its arrays are loaded in memory (mmap mode {} ignored, as"
          + " numpy ignores it for .npz); save them as .npy files to map them", file, options.mmapMode().get());
    }
    return NpzArchives.load(file, options);
  }

  /** Whether a dump to {@code file} writes numpy's format: its name ends in {@code .npy} or {@code .npz}. */
  public static boolean isNumpyName(Path file) {
    return isNpyName(file) || isNpzName(file);
  }

  /** Whether {@code file}'s name ends in {@code .npy} (any case). */
  public static boolean isNpyName(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".npy");
  }

  private static boolean isNpzName(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".npz");
  }

  /**
   * Writes {@code value} to {@code file} in numpy's format: an {@link NDArray} to a {@code .npy}, a
   * {@code Map<String, NDArray>} to a {@code .npz}, deflated if {@code compress} asks for zlib or
   * gzip, else stored. Written under a temporary name and renamed into place, as every dump is.
   */
  public static void dump(Object value, Path file, Compress compress) {
    Optional<Compress.Choice> choice = compress.resolve(file.getFileName().toString());
    if (isNpyName(file)) {
      if (!(value instanceof NDArray)) {
        throw new IllegalArgumentException("cannot dump " + describe(value) + " to " + file + ": a .npy file"
            + " holds one NDArray (numpy's format); dump a Map<String, NDArray> to a .npz, or use another file"
            + " name (such as .jl4j) for joblib4j's own format, which holds any value");
      }
      if (choice.isPresent()) {
        throw new IllegalArgumentException("cannot dump to " + file + " compressed (" + choice.get().compressor().name()
            + "): numpy's .npy is never compressed. Dump without compression, or to a .npz, which numpy"
            + " compresses with zlib (np.savez_compressed)");
      }
      NDArray a = (NDArray) value;
      writeAtomically(file, ch -> NpyWriter.write(a, ch));
      return;
    }
    Map<String, NDArray> arrays = arrays(value, file);
    int level = -1;
    if (choice.isPresent()) {
      String codec = choice.get().compressor().name();
      if (!codec.equals("zlib") && !codec.equals("gzip")) {
        throw new IllegalArgumentException("cannot dump to " + file + " with " + codec + ": a numpy .npz is a zip"
            + " archive, compressed with deflate (zlib) or not at all; use Compress.of(true), a level 1..9,"
            + " \"zlib\" or Compress.none()");
      }
      level = choice.get().level();
    }
    int deflate = level;
    writeAtomically(file, ch -> {
      OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
      NpzArchives.write(arrays, out, deflate);
      out.flush();
    });
  }

  private static Map<String, NDArray> arrays(Object value, Path file) {
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("cannot dump " + describe(value) + " to " + file + ": a .npz archive"
          + " holds a Map<String, NDArray> (numpy's np.savez); dump an NDArray to a .npy, or use another file"
          + " name (such as .jl4j) for joblib4j's own format");
    }
    java.util.LinkedHashMap<String, NDArray> arrays = new java.util.LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
      if (!(e.getKey() instanceof String) || ((String) e.getKey()).isEmpty()) {
        throw new IllegalArgumentException("cannot dump to " + file + ": a .npz's keys are non-empty strings (the"
            + " names numpy loads them by), not " + describe(e.getKey()));
      }
      if (!(e.getValue() instanceof NDArray)) {
        throw new IllegalArgumentException("cannot dump to " + file + ": the value of '" + e.getKey() + "' is "
            + describe(e.getValue()) + ", and a .npz holds only NDArrays");
      }
      arrays.put((String) e.getKey(), (NDArray) e.getValue());
    }
    return arrays;
  }

  private static String describe(Object o) {
    return o == null ? "null" : "a " + o.getClass().getName();
  }

  /** Creates {@code file} as a zero-filled C-order {@code .npy} and maps its data READ_WRITE. */
  public static NDArray createMapped(Path file, DType dtype, long[] shape) {
    return NpyWriter.createMapped(file, dtype, shape);
  }

  private interface ChannelWrite {
    void to(FileChannel ch) throws IOException;
  }

  private static void writeAtomically(Path file, ChannelWrite write) {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp-" + UUID.randomUUID());
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        write.to(ch);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot dump to " + file + ": " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // best effort: the name is unique and hidden
      }
    }
  }
}
