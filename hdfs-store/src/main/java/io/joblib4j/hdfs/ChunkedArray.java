package io.joblib4j.hdfs;

import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.internal.ArrayDescriptor;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.Stores;
import io.joblib4j.spi.support.StorePaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;

/**
 * One logical {@link NDArray} kept in a store as chunks of rows, which workers anywhere — Spark
 * tasks on any executor, child JVMs, threads — write independently, and which a driver then opens
 * as one array: joblib's shared {@code np.memmap(..., mode="w+")} output array, at cluster scale.
 *
 * <pre>{@code
 * ChunkedArray out = ChunkedArray.create("hdfs://nn/arrays", "scores", DType.FLOAT64, 1_000, 10_000, 64);
 * sc.parallelize(range(0, out.chunks()), out.chunks()).foreach(i -> {
 *   NDArray rows = out.newChunk(i);          // chunk i: rows [i * 1000, (i + 1) * 1000)
 *   ... fill rows ...
 *   out.writeChunk(i, rows);                  // published atomically; a retried task is a no-op
 * });
 * NDArray all = out.toMapped(Path.of("scores.f64"));        // or out.toHeap(), or out.readChunk(i)
 * }</pre>
 *
 * <p>The array is serializable (it carries the store's location and options, and reopens the store
 * once per JVM). Each chunk is a store entry, so a chunk appears whole or not at all, and the first
 * writer of a chunk wins: a task that Spark retries or runs speculatively writes nothing twice. The
 * layout is in FORMAT.md, "Chunked arrays in a store".
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class ChunkedArray implements Serializable {
  @Serial private static final long serialVersionUID = 1L;
  private static final String DESCRIPTOR_ENTRY = "array";
  private static final String DESCRIPTOR_FILE = "array.json";
  private static final String CHUNK_FILE = "chunk.jl4j";
  private static final Map<String, Store> OPEN = new ConcurrentHashMap<>();

  /** The store's location, as given. */
  private final String location;
  /** The store options, which travel with the array. */
  private final LinkedHashMap<String, Object> storeOptions;
  /** The array's name in the store. */
  private final String name;
  /** Its type, shape and chunking. */
  private final ArrayDescriptor descriptor;

  private ChunkedArray(String location, Map<String, ?> storeOptions, String name, ArrayDescriptor descriptor) {
    this.location = location;
    this.storeOptions = new LinkedHashMap<>(storeOptions);
    this.name = StorePaths.check(name);
    this.descriptor = descriptor;
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a chunked array needs a name (a path in the store)");
    }
  }

  /**
   * Creates the array {@code name} in the store at {@code location} (a path, or a URI such as {@code
   * hdfs://nn/arrays}), or reuses it if it exists with the same type, shape and chunking (a driver
   * run again); an existing array that differs is an error.
   *
   * @param location a path, or a URI such as {@code hdfs://nn/arrays}
   * @param name the array's name, one path segment
   * @param dtype the element type
   * @param chunkRows the rows of axis 0 in each chunk
   * @param shape the whole array's shape
   * @return the array, serializable: tasks take it to write their chunks
   */
  public static ChunkedArray create(String location, String name, DType dtype, long chunkRows, long... shape) {
    return create(location, Map.of(), name, dtype, chunkRows, shape);
  }

  /**
   * {@link #create(String, String, DType, long, long...)} with store options.
   *
   * @param location a path, or a URI such as {@code hdfs://nn/arrays}
   * @param storeOptions store options, as {@code Memory.Builder.storeOption} takes them
   * @param name the array's name, one path segment
   * @param dtype the element type
   * @param chunkRows the rows of axis 0 in each chunk
   * @param shape the whole array's shape
   * @return the array
   */
  public static ChunkedArray create(String location, Map<String, ?> storeOptions, String name, DType dtype,
      long chunkRows, long... shape) {
    ChunkedArray a = new ChunkedArray(location, storeOptions, name, new ArrayDescriptor(dtype, shape, chunkRows));
    a.publishDescriptor();
    return a;
  }

  /**
   * Opens the existing array {@code name} in the store at {@code location}.
   *
   * @param location a path, or a URI such as {@code hdfs://nn/arrays}
   * @param name the array's name, one path segment
   * @return the array
   */
  public static ChunkedArray open(String location, String name) {
    return open(location, Map.of(), name);
  }

  /**
   * {@link #open(String, String)} with store options.
   *
   * @param location a path, or a URI such as {@code hdfs://nn/arrays}
   * @param storeOptions store options, as {@code Memory.Builder.storeOption} takes them
   * @param name the array's name, one path segment
   * @return the array
   */
  public static ChunkedArray open(String location, Map<String, ?> storeOptions, String name) {
    Store store = store(location, storeOptions);
    String path = StorePaths.join(name, DESCRIPTOR_ENTRY, DESCRIPTOR_FILE);
    try {
      Optional<InputStream> in = store.open(path);
      if (in.isEmpty()) {
        throw new IllegalArgumentException("no chunked array \"" + name + "\" in " + location);
      }
      try (InputStream s = in.get()) {
        return new ChunkedArray(location, storeOptions, name, ArrayDescriptor.parse(s, location + "/" + path));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the chunked array " + name + " in " + location + ": " + e.getMessage(), e);
    }
  }

  /**
   * The element type.
   *
   * @return the element type
   */
  public DType dtype() {
    return descriptor.dtype();
  }

  /**
   * The whole array's shape.
   *
   * @return a copy of the shape
   */
  public long[] shape() {
    return descriptor.shape();
  }

  /**
   * The rows of axis 0 in each chunk but the last.
   *
   * @return the rows per chunk
   */
  public long chunkRows() {
    return descriptor.chunkRows();
  }

  /**
   * The number of chunks.
   *
   * @return the number of chunks
   */
  public int chunks() {
    return descriptor.chunks();
  }

  /**
   * The first row of chunk {@code i}.
   *
   * @param i the chunk, from 0
   * @return the row, from 0
   */
  public long firstRow(int i) {
    return descriptor.firstRow(i);
  }

  /**
   * The shape of chunk {@code i} (the last one may have fewer rows).
   *
   * @param i the chunk, from 0
   * @return its shape
   */
  public long[] chunkShape(int i) {
    return descriptor.chunkShape(i);
  }

  /**
   * A zero-filled heap array shaped for chunk {@code i}, to fill and {@link #writeChunk write}.
   *
   * @param i the chunk, from 0
   * @return the array to fill
   */
  public NDArray newChunk(int i) {
    return NDArray.zeros(dtype(), chunkShape(i));
  }

  /**
   * Stores chunk {@code i}, atomically. Returns false if it was there already (a retried or
   * speculative task): the first writer's chunk is kept.
   *
   * @param i the chunk, from 0
   * @param data its rows
   * @return whether this call stored it
   * @throws IllegalArgumentException if {@code data}'s type or shape is not chunk {@code i}'s
   */
  public boolean writeChunk(int i, NDArray data) {
    long[] expected = chunkShape(i);
    if (data.dtype() != dtype() || !java.util.Arrays.equals(data.shape(), expected)) {
      throw new IllegalArgumentException("chunk " + i + " of " + name + " must be " + dtype().numpyName()
          + java.util.Arrays.toString(expected) + ", got " + data.dtype().numpyName() + java.util.Arrays.toString(data.shape()));
    }
    try {
      return store().publish(chunkEntry(i), List.of(new EntryFile(CHUNK_FILE, out -> Joblib.dump(data, out))))
          == Store.Publication.PUBLISHED;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write chunk " + i + " of " + name + " to " + location + ": " + e.getMessage(), e);
    }
  }

  /**
   * The chunks not written yet, in order.
   *
   * @return the chunk numbers, from 0
   */
  public List<Integer> missingChunks() {
    Set<String> present = new HashSet<>();
    try {
      for (StoreFile f : store().list(name)) {
        if (!f.directory() && f.path().endsWith("/" + CHUNK_FILE)) {
          present.add(f.path().substring(0, f.path().length() - CHUNK_FILE.length() - 1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + name + " in " + location + ": " + e.getMessage(), e);
    }
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < chunks(); i++) {
      if (!present.contains(chunkEntry(i))) {
        missing.add(i);
      }
    }
    return missing;
  }

  /**
   * Whether every chunk has been written.
   *
   * @return whether none is missing
   */
  public boolean isComplete() {
    return missingChunks().isEmpty();
  }

  /**
   * Chunk {@code i}, read into the heap (checksums verified).
   *
   * @param i the chunk, from 0
   * @return the chunk
   */
  public NDArray readChunk(int i) {
    descriptor.checkChunk(i);
    String path = chunkEntry(i) + "/" + CHUNK_FILE;
    try {
      Optional<InputStream> in = store().open(path);
      if (in.isEmpty()) {
        throw new IllegalStateException("chunk " + i + " of " + name + " has not been written");
      }
      try (InputStream s = in.get()) {
        NDArray chunk = checked(i, Joblib.load(s));
        requireEnd(i, s);
        return chunk;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read chunk " + i + " of " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * The whole array on the heap, assembled from every chunk.
   *
   * @return the array
   */
  public NDArray toHeap() {
    requireComplete();
    NDArray all = NDArray.zeros(dtype(), shape());
    for (int i = 0; i < chunks(); i++) {
      try (NDArray chunk = readChunk(i)) {
        copyInto(all, chunk, i);
      }
    }
    return all;
  }

  /**
   * The whole array in the local file {@code file} (created or truncated), memory-mapped {@link
   * MmapMode#READ_WRITE}: it can be larger than the heap. Chunks on a remote store come through the
   * machine's verified local copies and are mapped, not read into the heap. Writes to the result
   * change the local file only.
   *
   * @param file the local file
   * @return the mapped array
   */
  public NDArray toMapped(Path file) {
    requireComplete();
    NDArray all = NDArray.createMapped(file, dtype(), shape());
    for (int i = 0; i < chunks(); i++) {
      String path = chunkEntry(i) + "/" + CHUNK_FILE;
      try {
        Path local = store().localFile(path).orElseThrow(() -> new IllegalStateException("chunk vanished: " + path));
        NDArray chunk = checked(i, Joblib.load(local, MmapMode.READ_ONLY));
        copyInto(all, chunk, i);
        chunk.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read chunk " + i + " of " + name + ": " + e.getMessage(), e);
      }
    }
    all.force();
    return all;
  }

  /** Deletes the array and its chunks from the store. */
  public void delete() {
    try {
      store().delete(name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + name + " in " + location + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "ChunkedArray(" + location + "/" + name + ": " + descriptor + ")";
  }

  // ---- internals ------------------------------------------------------------------------------

  private void publishDescriptor() {
    Store store = store();
    try {
      if (store.publish(StorePaths.join(name, DESCRIPTOR_ENTRY), List.of(EntryFile.of(DESCRIPTOR_FILE,
          descriptor.toJson()))) == Store.Publication.ALREADY_PRESENT) {
        ArrayDescriptor existing = open(location, storeOptions, name).descriptor;
        if (!existing.equals(descriptor)) {
          throw new IllegalStateException("the chunked array " + name + " in " + location + " exists as " + existing
              + ", not " + descriptor + "; delete it or choose another name");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the chunked array " + name + " in " + location + ": " + e.getMessage(), e);
    }
  }

  private void requireComplete() {
    List<Integer> missing = missingChunks();
    if (!missing.isEmpty()) {
      throw new IllegalStateException(name + " is missing " + missing.size() + " of " + chunks() + " chunks, e.g. "
          + missing.subList(0, Math.min(10, missing.size())) + ": their tasks have not written them (yet)");
    }
  }

  /**
   * A chunk file holds one dump and nothing after it: Joblib.load of a stream reads exactly one dump
   * (streams may hold several), so bytes after it would pass unnoticed.
   */
  private void requireEnd(int i, InputStream s) throws IOException {
    long extra = s.transferTo(java.io.OutputStream.nullOutputStream());
    if (extra > 0) {
      throw new io.joblib4j.CorruptFileException(location + "/" + chunkEntry(i) + "/" + CHUNK_FILE, extra
          + " unexpected bytes after the end of chunk " + i + " of " + descriptor + ": the file is damaged;"
          + " delete() the array and write it again (a chunk that exists is never overwritten)");
    }
  }

  private NDArray checked(int i, Object loaded) {
    if (!(loaded instanceof NDArray a) || a.dtype() != dtype() || !java.util.Arrays.equals(a.shape(), chunkShape(i))) {
      throw new io.joblib4j.CorruptFileException(location + "/" + chunkEntry(i), "it does not hold chunk " + i
          + " of " + descriptor);
    }
    return a;
  }

  /** Copies a chunk into its rows of {@code all}. */
  private void copyInto(NDArray all, NDArray chunk, int i) {
    all.slice(firstRow(i), firstRow(i) + chunk.shape(0)).copyFrom(chunk);
  }

  private String chunkEntry(int i) {
    return StorePaths.join(name, String.format("c%06d", i));
  }

  private Store store() {
    return store(location, storeOptions);
  }

  private static Store store(String location, Map<String, ?> options) {
    Map<String, Object> copy = new LinkedHashMap<>(options);
    return OPEN.computeIfAbsent(location + " " + copy, k -> Stores.open(location, copy));
  }
}
