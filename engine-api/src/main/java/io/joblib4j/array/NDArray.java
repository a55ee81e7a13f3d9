package io.joblib4j.array;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.MmapMode;
import io.joblib4j.internal.array.ArrayAccess;
import io.joblib4j.internal.array.ArrayFiles;
import io.joblib4j.internal.array.ByteStorage;
import io.joblib4j.internal.array.Shapes;
import io.joblib4j.internal.hash.ValueHasher;
import io.joblib4j.internal.persist.npy.NumpyFiles;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * A typed n-dimensional array in C (row-major) order, held on the heap or memory-mapped from a file:
 * numpy's {@code ndarray} and {@code memmap}. Arrays may exceed 2 GiB (mapped ones are split into
 * several 1 GiB mappings).
 *
 * <pre>{@code
 * NDArray a = NDArray.zeros(DType.FLOAT64, 3, 4);
 * a.setDouble(1.5, 2, 3);
 * double x = a.getDouble(2, 3);
 * NDArray rows = a.slice(1, 3);               // rows 1 and 2: a view, no copy
 * NDArray col = a.slice(1, 0, 1);             // column 0 as a 3x1 view
 * NDArray b = NDArray.of(new double[] {1, 2, 3, 4, 5, 6}).reshape(2, 3);
 *
 * // joblib's np.memmap(path, dtype=float, shape=(2, 5, 5), mode="w+"): a shared output array
 * try (NDArray out = NDArray.createMapped(path, DType.FLOAT64, 2, 5, 5)) {
 *   out.setDouble(7.0, 0, 1, 2);              // reaches the file
 * }
 * }</pre>
 *
 * <p>Slices and rows are views sharing their parent's storage. Element getters convert from the
 * array's type ({@code getDouble} on an int32 array widens); setters cast to it, as numpy does. A
 * write to an array mapped {@link MmapMode#READ_ONLY} throws {@link ReadOnlyArrayException}.
 *
 * <p>{@link #equals} and {@link #hashCode} compare dtype, shape and the raw element bytes (so -0.0
 * and 0.0 differ, and NaNs with different payloads differ, as in {@link
 * io.joblib4j.Joblib#hash(Object)}). Heap and mapped arrays with the same content are equal.
 *
 * <p>{@link #close()} of a mapped array flushes a READ_WRITE mapping and releases it (the mapping of
 * every view of it too); the garbage collector then unmaps it. It is never unmapped eagerly, because
 * touching an unmapped buffer crashes the JVM rather than throwing. Not thread-safe for writes to the
 * same elements; threads and processes writing disjoint elements is fine.
 *
 * <p>Serializable: heap data is written inline (a mapped array is serialized as a copy of its
 * elements, unless the stream replaces it with its {@link #mapping()}).
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class NDArray implements Serializable, AutoCloseable {
  private static final long serialVersionUID = 1L;

  static {
    ArrayAccess.install(new Access());
  }

  private final transient ByteStorage storage;
  private final transient DType dtype;
  private final transient long[] shape;
  /** Per-axis strides in elements. */
  private final transient long[] strides;
  /** Offset of element [0, ..., 0] in elements. */
  private final transient long offset;
  private final transient long size;

  private NDArray(ByteStorage storage, DType dtype, long[] shape, long[] strides, long offset) {
    this.storage = storage;
    this.dtype = dtype;
    this.shape = shape;
    this.strides = strides;
    this.offset = offset;
    this.size = Shapes.size(shape);
  }

  private static NDArray contiguous(ByteStorage storage, DType dtype, long[] shape) {
    return new NDArray(storage, dtype, shape, Shapes.cStrides(shape), 0);
  }

  // ---------------------------------------------------------------- heap factories

  /**
   * A zero-filled heap array.
   *
   * @param dtype the element type
   * @param shape the length of each axis
   * @return the array
   */
  public static NDArray zeros(DType dtype, long... shape) {
    long[] s = Shapes.check(shape);
    return contiguous(ByteStorage.heap(Shapes.bytes(s, dtype)), dtype, s);
  }

  /**
   * A 1-d float64 copy of {@code data}.
   *
   * @param data the elements
   * @return the array
   */
  public static NDArray of(double... data) {
    NDArray a = zeros(DType.FLOAT64, data.length);
    for (int i = 0; i < data.length; i++) {
      a.storage.putDouble(8L * i, data[i]);
    }
    return a;
  }

  /**
   * A float64 copy of {@code data} with the given shape (whose size must be {@code data.length}).
   *
   * @param data the elements, in C order
   * @param shape the length of each axis
   * @return the array
   */
  public static NDArray of(double[] data, long... shape) {
    return of(data).reshape(shape);
  }

  /**
   * A 1-d float32 copy of {@code data}.
   *
   * @param data the elements
   * @return the array
   */
  public static NDArray of(float... data) {
    NDArray a = zeros(DType.FLOAT32, data.length);
    for (int i = 0; i < data.length; i++) {
      a.storage.putFloat(4L * i, data[i]);
    }
    return a;
  }

  /**
   * A 1-d int64 copy of {@code data}.
   *
   * @param data the elements
   * @return the array
   */
  public static NDArray of(long... data) {
    NDArray a = zeros(DType.INT64, data.length);
    for (int i = 0; i < data.length; i++) {
      a.storage.putLong(8L * i, data[i]);
    }
    return a;
  }

  /**
   * A 1-d int32 copy of {@code data}.
   *
   * @param data the elements
   * @return the array
   */
  public static NDArray of(int... data) {
    NDArray a = zeros(DType.INT32, data.length);
    for (int i = 0; i < data.length; i++) {
      a.storage.putInt(4L * i, data[i]);
    }
    return a;
  }

  /**
   * A 1-d int16 copy of {@code data}.
   *
   * @param data the elements
   * @return the array
   */
  public static NDArray of(short... data) {
    NDArray a = zeros(DType.INT16, data.length);
    for (int i = 0; i < data.length; i++) {
      a.storage.putShort(2L * i, data[i]);
    }
    return a;
  }

  /**
   * A 1-d bool copy of {@code data}.
   *
   * @param data the elements
   * @return the array
   */
  public static NDArray of(boolean... data) {
    NDArray a = zeros(DType.BOOL, data.length);
    for (int i = 0; i < data.length; i++) {
      a.storage.putByte(i, (byte) (data[i] ? 1 : 0));
    }
    return a;
  }

  /**
   * A 1-d array of type {@code dtype} (INT8, UINT8 or BOOL) that wraps {@code data} without copying:
   * writes to one are seen in the other.
   *
   * @param dtype {@link DType#INT8}, {@link DType#UINT8} or {@link DType#BOOL}
   * @param data the elements, shared
   * @return the array over {@code data}
   */
  public static NDArray wrap(DType dtype, byte[] data) {
    if (dtype.itemSize() != 1) {
      throw new IllegalArgumentException("a byte[] can only be wrapped as int8, uint8 or bool, not " + dtype);
    }
    ByteStorage s = ByteStorage.ofSegments(new ByteBuffer[] {ByteBuffer.wrap(data)}, 31, data.length);
    return contiguous(s, dtype, new long[] {data.length});
  }

  // ---------------------------------------------------------------- mapped factories

  /**
   * Creates (or truncates) {@code file} as a zero-filled array and maps it {@link
   * MmapMode#READ_WRITE}: numpy's {@code np.memmap(file, dtype, mode="w+", shape=shape)}. The file
   * holds the raw little-endian elements and nothing else, unless its name ends in {@code .npy}.
   *
   * <p><b>A name ending in {@code .npy}</b> (in any case) makes a numpy {@code .npy} file instead,
   * as numpy's {@code np.lib.format.open_memmap(file, mode="w+", dtype=dtype, shape=shape)} does: a
   * numpy header (format version 1.0, C order) and then the elements, so that numpy can map the
   * same file ({@code open_memmap(file, mode="r+")}, or {@code np.load(file, mmap_mode="r+")})
   * while Java and its workers write it, and {@link io.joblib4j.Joblib#load(Path, MmapMode)} maps it
   * again later. The array's {@link #mapping()} points past the header, so workers map its data.
   *
   * <p>Unlike numpy's, the file's space is reserved when it is created (with the system's {@code
   * fallocate} where there is one, else by writing zeros), so an array that does not fit on its disk
   * fails here, with an {@link InsufficientSpaceException} naming the file and the file system,
   * instead of faulting later wherever it is filled (a JVM {@code InternalError}, numpy's "Bus
   * error"). {@code -Djoblib4j.mappedArrays.reserve=false} keeps the file sparse, as numpy does: the
   * free-space check at creation stays, and a disk others fill afterwards can then fault.
   *
   * @param file the file
   * @param dtype the element type
   * @param shape the length of each axis
   * @return the writable mapped array
   * @throws InsufficientSpaceException if the array does not fit on the file system of {@code file}
   * @throws UncheckedIOException if the file cannot be created
   */
  public static NDArray createMapped(Path file, DType dtype, long... shape) {
    if (NumpyFiles.isNpyName(file)) {
      return NumpyFiles.createMapped(file, dtype, shape);
    }
    long[] s = Shapes.check(shape);
    long bytes = Shapes.bytes(s, dtype);
    try (FileChannel ch = ArrayFiles.create(file, bytes)) {
      return contiguous(ByteStorage.map(ch, file, 0, bytes, MmapMode.READ_WRITE), dtype, s);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create mapped array " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Maps an existing region of raw little-endian elements: numpy's {@code np.memmap(file, dtype,
   * mode, offset, shape)}. The region must lie within the file.
   *
   * @param file the file
   * @param dtype the element type
   * @param mode how to map it
   * @param byteOffset where the first element is
   * @param shape the length of each axis
   * @return the mapped array
   */
  public static NDArray map(Path file, DType dtype, MmapMode mode, long byteOffset, long... shape) {
    long[] s = Shapes.check(shape);
    try {
      return contiguous(ByteStorage.map(file, byteOffset, Shapes.bytes(s, dtype), mode), dtype, s);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot map " + file, e);
    }
  }

  /**
   * Maps what {@link #mapping()} described, e.g. in another JVM; the view's strides are kept.
   *
   * @param m a mapping, from {@link #mapping()}
   * @return the mapped array
   */
  public static NDArray map(ArrayMapping m) {
    long[] shape = Shapes.check(m.shape());
    long[] strides = m.strides();
    long span = Shapes.spanElements(shape, strides);
    try {
      ByteStorage s = ByteStorage.map(m.path(), m.byteOffset(), span * m.dtype().itemSize(), m.mode());
      return new NDArray(s, m.dtype(), shape, strides, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot map " + m, e);
    }
  }

  // ---------------------------------------------------------------- shape

  /**
   * The element type.
   *
   * @return the element type
   */
  public DType dtype() {
    return dtype;
  }

  /**
   * A copy of the shape.
   *
   * @return the length of each axis
   */
  public long[] shape() {
    return shape.clone();
  }

  /**
   * The length of axis {@code axis}.
   *
   * @param axis the axis, from 0
   * @return its length
   */
  public long shape(int axis) {
    return shape[axis];
  }

  /**
   * The number of axes.
   *
   * @return the number of axes
   */
  public int ndim() {
    return shape.length;
  }

  /**
   * Number of elements.
   *
   * @return the product of the shape
   */
  public long size() {
    return size;
  }

  /**
   * Bytes of element data ({@code size() * dtype().itemSize()}).
   *
   * @return the size of the elements in bytes
   */
  public long nbytes() {
    return size * dtype.itemSize();
  }

  /**
   * Whether the elements are one C-ordered run in storage (true unless a view along a later axis).
   *
   * @return whether the elements are contiguous
   */
  public boolean isContiguous() {
    return Arrays.equals(strides, Shapes.cStrides(shape)) || size <= 1;
  }

  /**
   * Whether the array is memory-mapped from a file.
   *
   * @return whether it is mapped
   */
  public boolean isMapped() {
    return storage.file() != null;
  }

  /**
   * The mapping mode, if mapped.
   *
   * @return the mode, or empty for a heap array
   */
  public Optional<MmapMode> mmapMode() {
    return Optional.ofNullable(storage.mode());
  }

  /**
   * Whether element writes are allowed (false only for READ_ONLY mappings).
   *
   * @return whether the elements can be set
   */
  public boolean isWritable() {
    return storage.isWritable();
  }

  /**
   * The file region backing this array (or view), if it is mapped: what {@link #map(ArrayMapping)}
   * needs to map the same bytes elsewhere.
   *
   * @return the mapping, or empty for a heap array
   */
  public Optional<ArrayMapping> mapping() {
    if (storage.file() == null) {
      return Optional.empty();
    }
    long fileOffset = storage.fileOffset() + offset * dtype.itemSize();
    return Optional.of(new ArrayMapping(storage.file().toString(), fileOffset, dtype, shape, strides,
        storage.mode()));
  }

  /**
   * A view with a new shape (one axis may be -1); the array must be contiguous.
   *
   * @param newShape the length of each new axis
   * @return the view
   */
  public NDArray reshape(long... newShape) {
    long[] s = Shapes.reshape(shape, newShape, size);
    if (!isContiguous()) {
      throw new IllegalStateException("reshape needs a contiguous array; copy() this view first");
    }
    return new NDArray(storage, dtype, s, Shapes.cStrides(s), offset);
  }

  /**
   * Rows {@code [from, to)} along axis 0: a view.
   *
   * @param from the first row
   * @param to the row after the last
   * @return the view
   */
  public NDArray slice(long from, long to) {
    return slice(0, from, to);
  }

  /**
   * Elements {@code [from, to)} along {@code axis}: a view.
   *
   * @param axis the axis, from 0
   * @param from the first index
   * @param to the index after the last
   * @return the view
   */
  public NDArray slice(int axis, long from, long to) {
    if (axis < 0 || axis >= shape.length) {
      throw new IndexOutOfBoundsException("axis " + axis + " out of range for a " + shape.length + "-d array");
    }
    if (from < 0 || to < from || to > shape[axis]) {
      throw new IndexOutOfBoundsException("slice [" + from + ", " + to + ") out of range for axis " + axis
          + " of length " + shape[axis]);
    }
    long[] s = shape.clone();
    s[axis] = to - from;
    return new NDArray(storage, dtype, s, strides, offset + from * strides[axis]);
  }

  /**
   * Row {@code i} along axis 0, one dimension less: a view.
   *
   * @param i the row, from 0
   * @return the view
   */
  public NDArray row(long i) {
    if (shape.length == 0) {
      throw new IndexOutOfBoundsException("a 0-d array has no rows");
    }
    Shapes.checkIndex(i, shape[0], 0);
    return new NDArray(storage, dtype, Arrays.copyOfRange(shape, 1, shape.length),
        Arrays.copyOfRange(strides, 1, strides.length), offset + i * strides[0]);
  }

  /**
   * A contiguous heap copy.
   *
   * @return the copy
   */
  public NDArray copy() {
    NDArray c = zeros(dtype, shape);
    long[] pos = {0};
    forEachBuffer(b -> {
      int n = b.remaining();
      c.storage.write(pos[0], b);
      pos[0] += n;
    });
    return c;
  }

  // ---------------------------------------------------------------- element access

  private long byteOffset(long... idx) {
    if (idx.length != shape.length) {
      throw new IllegalArgumentException("need " + shape.length + " indices for a " + shape.length
          + "-d array, got " + idx.length);
    }
    long e = offset;
    for (int i = 0; i < idx.length; i++) {
      Shapes.checkIndex(idx[i], shape[i], i);
      e += idx[i] * strides[i];
    }
    return e * dtype.itemSize();
  }

  private long byteOffset1(long i) {
    if (shape.length != 1) {
      return byteOffset(new long[] {i});
    }
    Shapes.checkIndex(i, shape[0], 0);
    return (offset + i * strides[0]) * dtype.itemSize();
  }

  private long byteOffset2(long i, long j) {
    if (shape.length != 2) {
      return byteOffset(new long[] {i, j});
    }
    Shapes.checkIndex(i, shape[0], 0);
    Shapes.checkIndex(j, shape[1], 1);
    return (offset + i * strides[0] + j * strides[1]) * dtype.itemSize();
  }

  /**
   * The element at {@code i} of a 1-d array, converted to double.
   *
   * @param i the index, from 0
   * @return the element
   */
  public double getDouble(long i) {
    return readDouble(byteOffset1(i));
  }

  /**
   * The element at {@code (i, j)} of a 2-d array, converted to double.
   *
   * @param i the row, from 0
   * @param j the column, from 0
   * @return the element
   */
  public double getDouble(long i, long j) {
    return readDouble(byteOffset2(i, j));
  }

  /**
   * The element at {@code idx}, converted to double.
   *
   * @param idx one index per axis, from 0
   * @return the element
   */
  public double getDouble(long... idx) {
    return readDouble(byteOffset(idx));
  }

  /**
   * Sets the element at {@code i} of a 1-d array, cast to the array's type.
   *
   * @param v the value
   * @param i the index, from 0
   */
  public void setDouble(double v, long i) {
    writeDouble(byteOffset1(i), v);
  }

  /**
   * Sets the element at {@code (i, j)} of a 2-d array, cast to the array's type.
   *
   * @param v the value
   * @param i the row, from 0
   * @param j the column, from 0
   */
  public void setDouble(double v, long i, long j) {
    writeDouble(byteOffset2(i, j), v);
  }

  /**
   * Sets the element at {@code idx}, cast to the array's type.
   *
   * @param v the value
   * @param idx one index per axis, from 0
   */
  public void setDouble(double v, long... idx) {
    writeDouble(byteOffset(idx), v);
  }

  /**
   * The element at {@code idx}, converted to float.
   *
   * @param idx one index per axis, from 0
   * @return the element
   */
  public float getFloat(long... idx) {
    return (float) readDouble(byteOffset(idx));
  }

  /**
   * Sets the element at {@code idx}, cast to the array's type.
   *
   * @param v the value
   * @param idx one index per axis, from 0
   */
  public void setFloat(float v, long... idx) {
    writeDouble(byteOffset(idx), v);
  }

  /**
   * The element at {@code idx}, converted to long (floats truncate toward zero).
   *
   * @param idx one index per axis, from 0
   * @return the element
   */
  public long getLong(long... idx) {
    return readLong(byteOffset(idx));
  }

  /**
   * Sets the element at {@code idx}, cast to the array's type.
   *
   * @param v the value
   * @param idx one index per axis, from 0
   */
  public void setLong(long v, long... idx) {
    writeLong(byteOffset(idx), v);
  }

  /**
   * The element at {@code idx}, converted to int.
   *
   * @param idx one index per axis, from 0
   * @return the element
   */
  public int getInt(long... idx) {
    return (int) readLong(byteOffset(idx));
  }

  /**
   * Sets the element at {@code idx}, cast to the array's type.
   *
   * @param v the value
   * @param idx one index per axis, from 0
   */
  public void setInt(int v, long... idx) {
    writeLong(byteOffset(idx), v);
  }

  /**
   * The element at {@code idx}, converted to short.
   *
   * @param idx one index per axis, from 0
   * @return the element
   */
  public short getShort(long... idx) {
    return (short) readLong(byteOffset(idx));
  }

  /**
   * Sets the element at {@code idx}, cast to the array's type.
   *
   * @param v the value
   * @param idx one index per axis, from 0
   */
  public void setShort(short v, long... idx) {
    writeLong(byteOffset(idx), v);
  }

  /**
   * The element at {@code idx}, converted to byte.
   *
   * @param idx one index per axis, from 0
   * @return the element
   */
  public byte getByte(long... idx) {
    return (byte) readLong(byteOffset(idx));
  }

  /**
   * Sets the element at {@code idx}, cast to the array's type.
   *
   * @param v the value
   * @param idx one index per axis, from 0
   */
  public void setByte(byte v, long... idx) {
    writeLong(byteOffset(idx), v);
  }

  /**
   * Whether the element at {@code idx} is non-zero.
   *
   * @param idx one index per axis, from 0
   * @return the element as a boolean
   */
  public boolean getBoolean(long... idx) {
    return readLong(byteOffset(idx)) != 0;
  }

  /**
   * Sets the element at {@code idx} to 1 or 0.
   *
   * @param v the value
   * @param idx one index per axis, from 0
   */
  public void setBoolean(boolean v, long... idx) {
    writeLong(byteOffset(idx), v ? 1 : 0);
  }

  /**
   * Sets every element to {@code v} (cast to the array's type).
   *
   * @param v the value
   */
  public void fill(double v) {
    long[] idx = new long[shape.length];
    for (long n = 0; n < size; n++) {
      writeDouble(Shapes.offsetOf(idx, strides, offset) * dtype.itemSize(), v);
      Shapes.increment(idx, shape);
    }
  }

  private double readDouble(long off) {
    switch (dtype) {
      case FLOAT64: return storage.getDouble(off);
      case FLOAT32: return storage.getFloat(off);
      case INT64: return storage.getLong(off);
      case INT32: return storage.getInt(off);
      case INT16: return storage.getShort(off);
      case INT8: return storage.getByte(off);
      case UINT8: return storage.getByte(off) & 0xff;
      default: return storage.getByte(off) != 0 ? 1 : 0;
    }
  }

  private long readLong(long off) {
    switch (dtype) {
      case FLOAT64: return (long) storage.getDouble(off);
      case FLOAT32: return (long) storage.getFloat(off);
      case INT64: return storage.getLong(off);
      case INT32: return storage.getInt(off);
      case INT16: return storage.getShort(off);
      case INT8: return storage.getByte(off);
      case UINT8: return storage.getByte(off) & 0xff;
      default: return storage.getByte(off) != 0 ? 1 : 0;
    }
  }

  private void writeDouble(long off, double v) {
    try {
      switch (dtype) {
        case FLOAT64: storage.putDouble(off, v); break;
        case FLOAT32: storage.putFloat(off, (float) v); break;
        case BOOL: storage.putByte(off, (byte) (v != 0 ? 1 : 0)); break;
        default: writeLongUnchecked(off, (long) v);
      }
    } catch (ReadOnlyBufferException e) {
      throw readOnly();
    }
  }

  private void writeLong(long off, long v) {
    try {
      switch (dtype) {
        case FLOAT64: storage.putDouble(off, v); break;
        case FLOAT32: storage.putFloat(off, v); break;
        default: writeLongUnchecked(off, v);
      }
    } catch (ReadOnlyBufferException e) {
      throw readOnly();
    }
  }

  private void writeLongUnchecked(long off, long v) {
    switch (dtype) {
      case INT64: storage.putLong(off, v); break;
      case INT32: storage.putInt(off, (int) v); break;
      case INT16: storage.putShort(off, (short) v); break;
      case BOOL: storage.putByte(off, (byte) (v != 0 ? 1 : 0)); break;
      default: storage.putByte(off, (byte) v);
    }
  }

  private ReadOnlyArrayException readOnly() {
    return new ReadOnlyArrayException("this array is memory-mapped READ_ONLY from " + storage.file()
        + "; load or map it with MmapMode.READ_WRITE (writes reach the file) or COPY_ON_WRITE"
        + " (writes stay private), or copy() it");
  }

  // ---------------------------------------------------------------- bulk

  /**
   * Copies the elements of {@code source} into this array, numpy's {@code a[...] = source}: both
   * have the same dtype and shape, and this array may be a view, e.g. {@code
   * out.slice(from, to).copyFrom(rows)} fills rows {@code from..to} of a mapped output array.
   *
   * @param source an array of the same dtype and shape
   * @throws IllegalArgumentException if the dtypes or shapes differ
   * @throws ReadOnlyArrayException if this array is mapped {@link MmapMode#READ_ONLY}
   */
  public void copyFrom(NDArray source) {
    if (source.dtype != dtype || !Arrays.equals(source.shape, shape)) {
      throw new IllegalArgumentException("cannot copy a " + source.dtype.numpyName() + Arrays.toString(source.shape)
          + " array into a " + dtype.numpyName() + Arrays.toString(shape) + " one: dtype and shape must match");
    }
    try {
      if (isContiguous()) {
        long[] at = {offset * dtype.itemSize()};
        source.forEachBuffer(b -> {
          int n = b.remaining();
          storage.write(at[0], b);
          at[0] += n;
        });
        return;
      }
      long[] idx = new long[shape.length];
      for (long n = 0; n < size; n++) {
        long to = Shapes.offsetOf(idx, strides, offset) * dtype.itemSize();
        long from = Shapes.offsetOf(idx, source.strides, source.offset) * dtype.itemSize();
        if (dtype.isFloatingPoint()) {
          writeDouble(to, source.readDouble(from));
        } else {
          writeLong(to, source.readLong(from));
        }
        Shapes.increment(idx, shape);
      }
    } catch (ReadOnlyBufferException e) {
      throw readOnly();
    }
  }


  /**
   * The elements in C order, converted to double.
   *
   * @return a new array
   */
  public double[] toDoubleArray() {
    double[] out = new double[Math.toIntExact(size)];
    long[] idx = new long[shape.length];
    for (int n = 0; n < out.length; n++) {
      out[n] = readDouble(Shapes.offsetOf(idx, strides, offset) * dtype.itemSize());
      Shapes.increment(idx, shape);
    }
    return out;
  }

  /**
   * The elements in C order, converted to long.
   *
   * @return a new array
   */
  public long[] toLongArray() {
    long[] out = new long[Math.toIntExact(size)];
    long[] idx = new long[shape.length];
    for (int n = 0; n < out.length; n++) {
      out[n] = readLong(Shapes.offsetOf(idx, strides, offset) * dtype.itemSize());
      Shapes.increment(idx, shape);
    }
    return out;
  }

  /**
   * The elements in C order, converted to int.
   *
   * @return a new array
   */
  public int[] toIntArray() {
    long[] l = toLongArray();
    int[] out = new int[l.length];
    for (int i = 0; i < l.length; i++) {
      out[i] = (int) l[i];
    }
    return out;
  }

  /** Feeds the raw element bytes in C order as little-endian buffers (which callers must not write). */
  void forEachBuffer(Consumer<ByteBuffer> sink) {
    int item = dtype.itemSize();
    if (size == 0) {
      return;
    }
    if (isContiguous()) {
      emit(offset * item, size * item, sink);
      return;
    }
    // C-order runs along the last axis (a run is one element when the last axis is itself sliced)
    int last = shape.length - 1;
    boolean lastContiguous = strides[last] == 1;
    long runElems = lastContiguous ? shape[last] : 1;
    long runs = size / runElems;
    long[] idx = new long[shape.length];
    for (long r = 0; r < runs; r++) {
      emit(Shapes.offsetOf(idx, strides, offset) * item, runElems * item, sink);
      if (lastContiguous) {
        idx[last] = shape[last] - 1;
      }
      Shapes.increment(idx, shape);
    }
  }

  private void emit(long off, long len, Consumer<ByteBuffer> sink) {
    while (len > 0) {
      int n = (int) Math.min(len, storage.bytesInSegment(off));
      sink.accept(storage.slice(off, n)); // not asReadOnlyBuffer(): a heap buffer must keep its array
      off += n;
      len -= n;
    }
  }

  // ---------------------------------------------------------------- lifecycle

  /** Writes a READ_WRITE mapping's changes to its file (numpy's {@code flush}); no-op otherwise. */
  public void force() {
    storage.force();
  }

  /**
   * Flushes a READ_WRITE mapping and releases the storage shared by this array and all its views;
   * later access throws {@link IllegalStateException}. Heap arrays: releases the data too.
   */
  @Override
  public void close() {
    storage.close();
  }

  // ---------------------------------------------------------------- Object

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof NDArray)) {
      return false;
    }
    NDArray b = (NDArray) o;
    if (b.dtype != dtype || !Arrays.equals(b.shape, shape)) {
      return false;
    }
    NDArray x = isContiguous() ? this : copy();
    NDArray y = b.isContiguous() ? b : b.copy();
    long item = dtype.itemSize();
    long done = 0;
    long total = size * item;
    while (done < total) {
      long xo = x.offset * item + done;
      long yo = y.offset * item + done;
      int n = (int) Math.min(total - done, Math.min(x.storage.bytesInSegment(xo), y.storage.bytesInSegment(yo)));
      if (!x.storage.slice(xo, n).equals(y.storage.slice(yo, n))) {
        return false;
      }
      done += n;
    }
    return true;
  }

  @Override
  public int hashCode() {
    return ValueHasher.hex(this, HashAlgorithm.XXH3_128).hashCode(); // content, like equals; cheap next to a real use
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("NDArray(").append(dtype.numpyName()).append(", ")
        .append(Arrays.toString(shape)).append(", ");
    if (storage.isClosed()) {
      return sb.append("closed)").toString();
    }
    sb.append(isMapped() ? "mapped " + storage.mode() + " " + storage.file().getFileName() : "heap").append(")[");
    long[] idx = new long[shape.length];
    long n = Math.min(size, 6);
    for (long k = 0; k < n; k++) {
      long off = Shapes.offsetOf(idx, strides, offset) * dtype.itemSize();
      sb.append(k > 0 ? ", " : "").append(dtype.isFloatingPoint() ? String.valueOf(readDouble(off))
          : String.valueOf(readLong(off)));
      Shapes.increment(idx, shape);
    }
    return sb.append(size > n ? ", ...]" : "]").toString();
  }

  // ---------------------------------------------------------------- serialization

  /**
   * Serialized through its serial form (dtype, shape and the raw elements); a mapped array travels
   * as its elements.
   *
   * @return the serial form
   */
  private Object writeReplace() {
    return new SerialForm(this);
  }

  /**
   * Refuses a stream that holds an NDArray's fields instead of its serial form.
   *
   * @param in the stream
   * @throws InvalidObjectException always
   */
  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("NDArray is deserialized through its serial form");
  }

  /** The serial form: dtype, shape, then the raw little-endian elements in C order. */
  private static final class SerialForm implements Serializable {
    private static final long serialVersionUID = 1L;
    private transient NDArray array;

    SerialForm(NDArray array) {
      this.array = array;
    }

    private void writeObject(java.io.ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(array.dtype.code());
      out.writeInt(array.shape.length);
      for (long d : array.shape) {
        out.writeLong(d);
      }
      byte[] chunk = new byte[1 << 16];
      IOException[] failure = {null};
      array.forEachBuffer(b -> {
        while (b.hasRemaining() && failure[0] == null) {
          int n = Math.min(chunk.length, b.remaining());
          b.get(chunk, 0, n);
          try {
            out.write(chunk, 0, n);
          } catch (IOException e) {
            failure[0] = e;
          }
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      DType dtype = DType.fromCode(in.readInt());
      int ndim = in.readInt();
      if (dtype == null || ndim < 0 || ndim > Shapes.MAX_DIMS) {
        throw new InvalidObjectException("corrupt NDArray: bad dtype or " + ndim + " dimensions");
      }
      long[] shape = new long[ndim];
      for (int i = 0; i < ndim; i++) {
        shape[i] = in.readLong();
      }
      long bytes;
      try {
        bytes = Shapes.bytes(Shapes.check(shape), dtype);
      } catch (IllegalArgumentException e) {
        throw new InvalidObjectException("corrupt NDArray: " + e.getMessage());
      }
      // filled piece by piece as bytes arrive, so a lying shape cannot make us allocate more than
      // the stream really holds
      array = contiguous(Shapes.readStorage(in, bytes), dtype, shape);
    }

    private Object readResolve() {
      return array;
    }
  }

  private static final class Access extends ArrayAccess {
    @Override
    public ByteStorage storage(NDArray a) {
      return a.storage;
    }

    @Override
    public long byteOffset(NDArray a) {
      return a.offset * a.dtype.itemSize();
    }

    @Override
    public boolean isContiguous(NDArray a) {
      return a.isContiguous();
    }

    @Override
    public void forEachBuffer(NDArray a, Consumer<ByteBuffer> sink) {
      a.forEachBuffer(sink);
    }

    @Override
    public NDArray create(ByteStorage storage, DType dtype, long[] shape) {
      long[] s = Shapes.check(shape);
      if (storage.byteSize() != Shapes.bytes(s, dtype)) {
        throw new IllegalArgumentException("storage of " + storage.byteSize() + " bytes does not hold a "
            + dtype.numpyName() + Arrays.toString(s));
      }
      return contiguous(storage, dtype, s);
    }

    @Override
    public NDArray create(ByteStorage storage, DType dtype, long[] shape, long[] strides) {
      long[] s = Shapes.check(shape);
      if (strides.length != s.length) {
        throw new IllegalArgumentException("shape " + Arrays.toString(s) + " and strides "
            + Arrays.toString(strides) + " differ in length");
      }
      if (Shapes.spanElements(s, strides) * dtype.itemSize() > storage.byteSize()) {
        throw new IllegalArgumentException("storage of " + storage.byteSize() + " bytes does not hold a "
            + dtype.numpyName() + Arrays.toString(s) + " with strides " + Arrays.toString(strides));
      }
      return new NDArray(storage, dtype, s, strides.clone(), 0);
    }

    @Override
    public long[] strides(NDArray a) {
      return a.strides.clone();
    }
  }
}
