package io.joblib4j.array;

import io.joblib4j.MmapMode;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where a memory-mapped {@link NDArray} lives: enough for another JVM on the same machine (or with
 * the same file system) to map the very same bytes with {@link NDArray#map(ArrayMapping)}. Writes
 * through a {@link MmapMode#READ_WRITE} mapping in one JVM are visible to every other JVM mapping
 * the same file region READ_WRITE or READ_ONLY: this is how workers fill disjoint rows of one
 * shared output array (joblib's {@code np.memmap(path, mode="w+")} pattern).
 *
 * <pre>{@code
 * NDArray out = NDArray.createMapped(dir.resolve("out.f64"), DType.FLOAT64, 10_000, 1_000);
 * ArrayMapping ref = out.mapping().orElseThrow();  // Serializable: send it to a worker
 * // in the worker JVM:
 * NDArray same = NDArray.map(ref);
 * same.row(i).setDouble(42.0, 0);                  // the parent sees it
 * }</pre>
 *
 * @param file absolute path of the mapped file, as a string (Path is not Serializable)
 * @param byteOffset file offset of the array's first element
 * @param dtype element type
 * @param shape the array's shape
 * @param strides per-axis element strides (C order for an array that is not a view)
 * @param mode the mapping mode of the array this was taken from
 * @serial exclude (a record's serial form is its components, documented above; javadoc 17 asks for
 *     a comment on each component again in the serialized-form page)
 */
@API(status = API.Status.STABLE, since = "0.1")
public record ArrayMapping(String file, long byteOffset, DType dtype, long[] shape, long[] strides, MmapMode mode)
    implements Serializable {

  /**
   * Checks the fields and copies the arrays, so that the record stays immutable.
   *
   * @param file absolute path of the mapped file, as a string (Path is not Serializable)
   * @param byteOffset file offset of the array's first element
   * @param dtype element type
   * @param shape the array's shape
   * @param strides per-axis element strides (C order for an array that is not a view)
   * @param mode the mapping mode of the array this was taken from
   */
  public ArrayMapping {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(dtype, "dtype");
    Objects.requireNonNull(mode, "mode");
    shape = shape.clone();
    strides = strides.clone();
    if (shape.length != strides.length) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " and strides "
          + Arrays.toString(strides) + " differ in length");
    }
    if (byteOffset < 0) {
      throw new IllegalArgumentException("negative byte offset " + byteOffset);
    }
  }

  /**
   * The mapped file.
   *
   * @return the file as a path
   */
  public Path path() {
    return Path.of(file);
  }

  /**
   * This mapping with another mode, e.g. to map a READ_WRITE array read-only in a worker.
   *
   * @param newMode the mode to map with
   * @return the new mapping
   */
  public ArrayMapping withMode(MmapMode newMode) {
    return new ArrayMapping(file, byteOffset, dtype, shape, strides, newMode);
  }

  /**
   * The array's shape.
   *
   * @return a copy of the shape
   */
  @Override
  public long[] shape() {
    return shape.clone();
  }

  /**
   * The per-axis element strides.
   *
   * @return a copy of the strides
   */
  @Override
  public long[] strides() {
    return strides.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrayMapping && ((ArrayMapping) o).file.equals(file)
        && ((ArrayMapping) o).byteOffset == byteOffset && ((ArrayMapping) o).dtype == dtype
        && Arrays.equals(((ArrayMapping) o).shape, shape) && Arrays.equals(((ArrayMapping) o).strides, strides)
        && ((ArrayMapping) o).mode == mode;
  }

  @Override
  public int hashCode() {
    return Objects.hash(file, byteOffset, dtype, Arrays.hashCode(shape), Arrays.hashCode(strides), mode);
  }

  @Override
  public String toString() {
    return "ArrayMapping[" + file + " @" + byteOffset + ", " + dtype.numpyName() + Arrays.toString(shape)
        + ", strides=" + Arrays.toString(strides) + ", " + mode + "]";
  }
}
