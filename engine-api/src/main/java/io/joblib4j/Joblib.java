package io.joblib4j;

import io.joblib4j.internal.hash.ValueHasher;
import io.joblib4j.internal.persist.Dumps;
import io.joblib4j.internal.persist.Persistence;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * joblib's {@code dump}, {@code load} and {@code hash}: persist values to files or streams, read
 * them back (optionally memory-mapping arrays), and compute stable content hashes.
 *
 * <pre>{@code
 * Joblib.dump(model, Path.of("model.jl4j.lz4"));             // codec from the extension
 * Joblib.dump(model, path, Compress.of("zstd", 3));
 * Model m = Joblib.load(path, LoadOptions.builder().allow(Model.class).build());
 * NDArray big = Joblib.load(path, MmapMode.READ_ONLY);        // mapped, no copy
 * String key = Joblib.hash(List.of("fit", 42, big));          // stable across JVMs and runs
 * }</pre>
 *
 * <p><b>What can be dumped:</b> null, boxed primitives, String, BigInteger, BigDecimal, primitive
 * arrays (stored raw), {@link io.joblib4j.array.NDArray} (stored raw and aligned, so it can be
 * mapped), object arrays, {@code List}/{@code Set}/{@code Map} (ArrayList, LinkedList, HashMap,
 * LinkedHashMap, TreeMap and TreeSet in natural order, HashSet, LinkedHashSet, the JDK's immutable
 * collections), enums, records, Optional, UUID and java.time values, all as plain data; any other
 * Serializable object through Java serialization, and anything else through Kryo.
 *
 * <p><b>Safe loading:</b> {@code load} refuses any class that is not on the allow-list before an
 * instance is created ({@link UnsafeClassException}); see {@link LoadOptions} for what is allowed by
 * default and how to allow more. A file that is truncated, corrupted or hostile fails with {@link
 * CorruptFileException} naming the file, never with a wrong value.
 *
 * <p><b>numpy's files:</b> {@code load} also reads numpy's {@code .npy} (format versions 1.0, 2.0
 * and 3.0) as an {@link io.joblib4j.array.NDArray}, mapped with no copy when an {@link MmapMode} is
 * given, and a {@code .npz} archive (stored or deflated) as a {@code Map<String, NDArray>}, both
 * recognised by their first bytes; {@code dump} to a name ending in {@code .npy} or {@code .npz}
 * writes numpy's formats, which numpy reads ({@code np.load}). Every dtype {@code NDArray} has
 * loads in either byte order and in C or Fortran order; other dtypes are refused by name, and an
 * object array, whose data is a pickle, is refused before its data is read: joblib4j never runs
 * pickles.
 *
 * <pre>{@code
 * NDArray x = Joblib.load(Path.of("features.npy"));                    // np.save(...)
 * NDArray m = Joblib.load(Path.of("features.npy"), MmapMode.READ_ONLY); // np.load(..., mmap_mode="r")
 * Map<String, NDArray> all = Joblib.load(Path.of("arrays.npz"));       // np.savez(...)
 * Joblib.dump(scores, Path.of("scores.npy"));                          // np.load("scores.npy")
 * Joblib.dump(Map.of("x", x, "y", scores), Path.of("xy.npz"), Compress.of(true)); // savez_compressed
 * }</pre>
 *
 * <p><b>Errors:</b> all unchecked. I/O failures are {@link java.io.UncheckedIOException}; bad
 * content is {@link CorruptFileException}, {@link UnsafeClassException} or {@link
 * UnsupportedFormatVersionException} (all {@link JoblibException}s); bad arguments are {@link
 * IllegalArgumentException}.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class Joblib {
  private Joblib() {}

  /**
   * Writes {@code value} to {@code file}, compressed if the file's extension names a codec ({@code
   * .z .gz .bz2 .lzma .xz .lz4 .zst}). The file is written under a temporary name and renamed into
   * place, so a failure never leaves a partial file (nor destroys an existing one).
   *
   * <p>A name ending in {@code .npy} writes numpy's {@code .npy} format instead, and takes one
   * {@link io.joblib4j.array.NDArray}; a name ending in {@code .npz} writes numpy's {@code .npz}
   * archive, and takes a {@code Map<String, NDArray>} (entries stored, as {@code np.savez} writes
   * them).
   *
   * @param value what to write (see the class comment for what can be written)
   * @param file the file; its extension picks the codec, or numpy's format
   * @throws IllegalArgumentException if the value cannot be written (a cycle, nesting too deep; to a
   *     {@code .npy}, anything but an NDArray; to a {@code .npz}, anything but a map of NDArrays by
   *     non-empty string keys)
   * @throws java.io.UncheckedIOException if the file cannot be written
   */
  public static void dump(Object value, Path file) {
    dump(value, file, Compress.none());
  }

  /**
   * Writes {@code value} to {@code file} with joblib's {@code compress} rules (see {@link Compress}).
   * To a {@code .npz}, compression deflates every entry, as {@code np.savez_compressed} does (zlib
   * only: a zip holds no other codec numpy reads); a {@code .npy} is never compressed.
   *
   * @param value what to write
   * @param file the file
   * @param compress the codec and level, or {@link Compress#none()} to follow the extension
   * @throws IllegalArgumentException if the value cannot be written, or a {@code .npy} is asked to be
   *     compressed, or a {@code .npz} with a codec other than zlib
   * @throws java.io.UncheckedIOException if the file cannot be written
   */
  public static void dump(Object value, Path file, Compress compress) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(compress, "compress");
    Dumps.toFile(value, file, compress);
  }

  /**
   * Writes {@code value} to {@code out}, uncompressed; {@code out} is flushed, not closed.
   *
   * @param value what to write
   * @param out the stream
   * @throws IllegalArgumentException if the value cannot be written
   * @throws java.io.UncheckedIOException if the stream fails
   */
  public static void dump(Object value, OutputStream out) {
    dump(value, out, Compress.none());
  }

  /**
   * Writes {@code value} to {@code out}, which is flushed, not closed. A stream has no extension,
   * so {@link Compress#none()} means uncompressed.
   *
   * @param value what to write
   * @param out the stream
   * @param compress the codec and level
   * @throws IllegalArgumentException if the value cannot be written
   * @throws java.io.UncheckedIOException if the stream fails
   */
  public static void dump(Object value, OutputStream out, Compress compress) {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(compress, "compress");
    Dumps.toStream(value, out, compress);
  }

  /**
   * Reads the value in {@code file} with the default {@link LoadOptions}: into memory, every byte
   * checked (see {@link #load(Path, LoadOptions)}).
   *
   * @param <T> the type the caller expects (not checked: a wrong one fails where the value is used)
   * @param file the file, compressed or not (the codec is found from its first bytes); or numpy's
   *     {@code .npy} (an NDArray) or {@code .npz} (a {@code Map<String, NDArray>})
   * @return the value
   * @throws CorruptFileException if the file is truncated, damaged, hostile or over a limit
   * @throws UnsafeClassException if it holds a class that is not on the allow-list
   * @throws UnsupportedFormatVersionException if a newer joblib4j wrote it
   * @throws java.io.UncheckedIOException if it cannot be read (it does not exist, permission denied)
   */
  public static <T> T load(Path file) {
    return load(file, LoadOptions.defaults());
  }

  /**
   * Reads the value in {@code file}, memory-mapping its {@link io.joblib4j.array.NDArray}s in {@code
   * mode} (each array in the value gets its own mapping). A compressed file cannot be mapped and is
   * loaded in memory, with a warning. Plain Java arrays are always read into memory. The mapped data
   * is checked against its CRC32C on the first map of each version of the file in this JVM (see
   * {@link #load(Path, LoadOptions)}).
   *
   * <p>numpy's {@code .npy} is mapped with no copy and no check (numpy's format has no checksum), as
   * {@code np.load(file, mmap_mode=...)} maps it; a Fortran-ordered one keeps its order. Big-endian
   * data cannot be mapped as NDArray's little-endian elements: it is loaded in memory, byte-swapped,
   * with a warning, and refused {@link MmapMode#READ_WRITE} with an {@link IllegalArgumentException},
   * since writes could not reach the file. A {@code .npz} is loaded in memory, as numpy loads it.
   *
   * @param <T> the type the caller expects
   * @param file the file; only an uncompressed one can be mapped
   * @param mode how to map: {@link MmapMode#READ_ONLY}, {@link MmapMode#READ_WRITE} or {@link
   *     MmapMode#COPY_ON_WRITE}
   * @return the value, its NDArrays mapped
   * @throws IllegalArgumentException if a big-endian numpy {@code .npy} is to be mapped {@link
   *     MmapMode#READ_WRITE}
   * @throws CorruptFileException if the file is truncated, damaged, hostile or over a limit
   * @throws UnsafeClassException if it holds a class that is not on the allow-list
   * @throws UnsupportedFormatVersionException if a newer joblib4j wrote it
   * @throws java.io.UncheckedIOException if it cannot be read or mapped
   */
  public static <T> T load(Path file, MmapMode mode) {
    return load(file, LoadOptions.builder().mmapMode(mode).build());
  }

  /**
   * Reads the value in {@code file} with {@code options}.
   *
   * <p><b>What is checked, and when.</b> Everything in the file is checked before it is used: the
   * header, every record's header, sequence number and length, and the CRC32C of every record's
   * payload; a compressed file's codec trailer; that nothing follows the end record. Classes are
   * checked against the allow-list before they are loaded ({@link UnsafeClassException}); lengths
   * are checked against the bytes that remain before anything is allocated; what the load builds
   * is bounded by {@link LoadOptions#maxHeapBytes()} and {@link LoadOptions#maxDecompressedBytes()}.
   * A <em>mapped</em> array is not read to be loaded, so its data is checked separately, lazily:
   * each 1 MiB block against its own CRC32C the first time it is read through the array or any view
   * of it (or, {@link MmapMode#COPY_ON_WRITE}, written), so a map costs the same whatever the file's
   * size and only what is read is ever checked; a damaged block fails the reads that touch it with
   * a {@link CorruptFileException} naming the file and the block. Files written before joblib4j
   * kept block sums are checked whole instead, on the first map of each version of the file in this
   * JVM (a version is the path, size, modification time and file key, such as the inode; a file
   * rewritten in place within two seconds before its check is checked again). {@link
   * LoadOptions.Builder#verifyMappedData(boolean) verifyMappedData(false)} skips these checks for
   * files you trust not to be damaged. Data mapped {@link MmapMode#READ_WRITE} is checked whole on
   * its first such map and then flagged in the file as no longer checksummed, since its bytes then
   * change under the reader.
   *
   * @param <T> the type the caller expects
   * @param file the file
   * @param options mapping, allow-list and limits
   * @return the value
   * @throws CorruptFileException if the file is truncated, damaged, hostile or over a limit of
   *     {@code options}; the message names the file, what was wrong and, for a limit, how to raise it
   * @throws UnsafeClassException if it holds a class that is not on the allow-list
   * @throws UnsupportedFormatVersionException if a newer joblib4j wrote it
   * @throws java.io.UncheckedIOException if it cannot be read (it does not exist, permission denied)
   */
  @SuppressWarnings("unchecked")
  public static <T> T load(Path file, LoadOptions options) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    return (T) Persistence.load(file, options);
  }

  /**
   * Reads one value from {@code in} (not closed). For an uncompressed stream, exactly the bytes of
   * one dump are consumed, so several dumps can follow each other in one stream. A compressed
   * stream is read to its end, its codec's trailer checked: it must hold one dump and nothing
   * after it.
   *
   * @param <T> the type the caller expects
   * @param in the stream (not closed)
   * @return the value
   * @throws CorruptFileException if the data is truncated, damaged, hostile or over a limit
   * @throws UnsafeClassException if it holds a class that is not on the allow-list
   * @throws UnsupportedFormatVersionException if a newer joblib4j wrote it
   * @throws java.io.UncheckedIOException if the stream fails
   */
  public static <T> T load(InputStream in) {
    return load(in, LoadOptions.defaults());
  }

  /**
   * Reads one value from {@code in} with {@code options}; an mmap mode is ignored with a warning.
   *
   * @param <T> the type the caller expects
   * @param in the stream (not closed)
   * @param options allow-list and limits
   * @return the value
   * @throws CorruptFileException if the data is truncated, damaged, hostile or over a limit
   * @throws UnsafeClassException if it holds a class that is not on the allow-list
   * @throws UnsupportedFormatVersionException if a newer joblib4j wrote it
   * @throws java.io.UncheckedIOException if the stream fails
   */
  @SuppressWarnings("unchecked")
  public static <T> T load(InputStream in, LoadOptions options) {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(options, "options");
    return (T) Persistence.load(in, options);
  }

  /**
   * The xxHash3-128 content hash of {@code value} as 32 hex digits: equal for equal content, in any
   * JVM, run or machine. See {@link #hash(Object, HashAlgorithm)} for what "content" means.
   *
   * @param value the value to hash (may be null)
   * @return 32 lower-case hex digits
   * @throws UnhashableValueException if the value holds something that cannot be hashed
   */
  public static String hash(Object value) {
    return hash(value, HashAlgorithm.XXH3_128);
  }

  /**
   * The content hash of {@code value} in hex.
   *
   * <ul>
   *   <li>Every value is tagged with its kind, so {@code 1}, {@code 1L}, {@code "1"} and {@code
   *       List.of(1)} all differ, and a {@code List} differs from an {@code int[]} with the same
   *       elements. Lists, sets and maps hash by kind, not class: an ArrayList and a List.of with
   *       the same elements are equal.
   *   <li>Maps and sets hash independently of iteration order.
   *   <li>Strings hash by their UTF-8 bytes. Boxed doubles and floats canonicalise NaN (as {@link
   *       Double#equals} does) but keep -0.0 distinct from 0.0.
   *   <li>Primitive arrays and {@link io.joblib4j.array.NDArray}s hash their raw little-endian
   *       bytes (plus dtype and shape), so NaN payloads and -0.0 count, as in numpy; a mapped and a
   *       heap NDArray with the same content hash the same.
   *   <li>Records hash by class name and component values; enums by class and constant name; other
   *       objects by class name and the values of their non-static, non-transient fields (synthetic
   *       ones included: what an anonymous or inner class captured), walking from the top
   *       superclass down, fields of each class sorted by name. A serializable lambda hashes by its
   *       implementation method and captured values. A memoized function hashes as the function it
   *       memoizes; a {@link Memory} or {@link Parallel} by its class alone.
   *   <li>A reference back to an object that is being hashed (a cycle: an object whose field
   *       leads back to it) hashes as how many levels up that object is, so graphs of the same
   *       shape and content hash equal. An object reached twice without a cycle is hashed twice,
   *       like two equal copies.
   * </ul>
   *
   * @param value the value to hash (may be null)
   * @param algorithm the digest: {@link HashAlgorithm#XXH3_128} or {@link HashAlgorithm#SHA_256}
   * @return the hash as lower-case hex digits
   * @throws UnhashableValueException (an IllegalArgumentException) if the value nests deeper than
   *     256 levels, or holds something that cannot be hashed (an object whose fields the JDK does not
   *     open, such as a Thread or a lock; a lambda that is not serializable); the message names the
   *     path from the value to it ({@code .holder .items [1]}) and what to do, {@link
   *     UnhashableValueException#path()} gives the path
   */
  public static String hash(Object value, HashAlgorithm algorithm) {
    Objects.requireNonNull(algorithm, "algorithm");
    return ValueHasher.hex(value, algorithm);
  }
}
