package io.joblib4j.hdfs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.array.DType;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A chunked array's {@code array.json}: its element type, full shape and rows per chunk (see
 * FORMAT.md, "Chunked arrays in a store").
 */
public record ArrayDescriptor(DType dtype, long[] shape, long chunkRows) implements java.io.Serializable {
  public static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  public ArrayDescriptor {
    if (shape.length == 0) {
      throw new IllegalArgumentException("a chunked array needs at least one dimension (its rows are chunked)");
    }
    for (long s : shape) {
      if (s < 0) {
        throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(shape));
      }
    }
    if (chunkRows < 1) {
      throw new IllegalArgumentException("chunkRows must be at least 1, got " + chunkRows);
    }
    shape = shape.clone();
  }

  /** How many chunks: rows / chunkRows, rounded up (the last chunk may be shorter). */
  public int chunks() {
    long n = (shape[0] + chunkRows - 1) / chunkRows;
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many chunks (" + n + "); use larger chunks");
    }
    return (int) n;
  }

  public long firstRow(int chunk) {
    checkChunk(chunk);
    return chunk * chunkRows;
  }

  public long[] chunkShape(int chunk) {
    long first = firstRow(chunk);
    long[] s = shape.clone();
    s[0] = Math.min(chunkRows, shape[0] - first);
    return s;
  }

  public void checkChunk(int chunk) {
    if (chunk < 0 || chunk >= chunks()) {
      throw new IndexOutOfBoundsException("chunk " + chunk + " of an array with " + chunks() + " chunks");
    }
  }

  public byte[] toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("dtype", dtype.numpyName());
    var s = root.putArray("shape");
    for (long d : shape) {
      s.add(d);
    }
    root.put("chunkRows", chunkRows);
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public static ArrayDescriptor parse(InputStream in, String where) throws IOException {
    JsonNode root = JSON.readTree(in);
    if (root == null || root.path("format").asInt() != FORMAT || !root.path("shape").isArray()) {
      throw new IOException("not a joblib4j chunked array descriptor (format " + FORMAT + "): " + where);
    }
    long[] shape = new long[root.get("shape").size()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = root.get("shape").get(i).asLong();
    }
    return new ArrayDescriptor(DType.fromNumpyName(root.path("dtype").asText()), shape, root.path("chunkRows").asLong());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrayDescriptor d && d.dtype == dtype && Arrays.equals(d.shape, shape) && d.chunkRows == chunkRows;
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(shape) + dtype.hashCode() + Long.hashCode(chunkRows);
  }

  @Override
  public String toString() {
    return dtype.numpyName() + Arrays.toString(shape) + " in chunks of " + chunkRows + " rows";
  }
}
