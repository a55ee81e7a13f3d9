package io.joblib4j.spi;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apiguardian.api.API;

/**
 * A compression codec for {@link io.joblib4j.Joblib#dump} (joblib's {@code CompressorWrapper}).
 *
 * <p>Built in: {@code zlib} ({@code .z}), {@code gzip} ({@code .gz}), {@code bz2} ({@code .bz2}),
 * {@code lzma} ({@code .lzma}), {@code xz} ({@code .xz}), {@code lz4} ({@code .lz4}, the LZ4 frame
 * format) and {@code zstd} ({@code .zst}). On load the codec is found from the file's first bytes
 * ({@link #magic()}), never from its name; on dump the file extension can choose it.
 *
 * <p>To add one, implement this interface with a public no-argument constructor and list the class
 * in {@code META-INF/services/io.joblib4j.spi.Compressor}, or call {@link
 * Compressors#register(Compressor)}. Implementations must be thread-safe (they are shared); the
 * streams they return are used by one thread.
 *
 * <pre>{@code
 * Compressors.register(new MySnappyCompressor());
 * Joblib.dump(model, Path.of("model.jl4j"), Compress.of("snappy", 5));
 * }</pre>
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface Compressor {
  /**
   * Unique, lower case name used in {@code Compress.of(name)}: {@code [a-z][a-z0-9_+-]{0,31}}.
   *
   * @return the name
   */
  String name();

  /**
   * File extension that selects this codec on dump, with its dot, e.g. {@code ".gz"}.
   *
   * @return the extension
   */
  String extension();

  /**
   * The bytes every stream this codec writes starts with (1 to 16 bytes), used to detect it on load.
   * Must not be a prefix of another registered codec's magic, nor of joblib4j's own container magic.
   *
   * @return the magic bytes
   */
  byte[] magic();

  /**
   * The level used when none is given, in 1..9.
   *
   * @return the default level
   */
  default int defaultLevel() {
    return 3;
  }

  /**
   * Wraps {@code out} so that bytes written to the result are compressed into it. Closing the result
   * finishes the stream and closes {@code out}.
   *
   * @param level 1 (fastest) to 9 (smallest); map it onto the codec's own scale
   * @param out where the compressed bytes go
   * @return the compressing stream
   * @throws IOException if the stream cannot be started, e.g. its header not written
   */
  OutputStream compress(OutputStream out, int level) throws IOException;

  /**
   * Wraps {@code in} so that reading the result yields the decompressed bytes. joblib4j reads the
   * result to its end after the value, so the stream should check the codec's trailer (checksum,
   * size) when it reaches it, and throw an IOException if {@code in} ends before the compressed
   * data does or holds bytes after it: a cut or extended file is then reported as corrupt
   * instead of loading.
   *
   * @param in the compressed bytes
   * @return the decompressing stream
   * @throws IOException if the stream's header is not this codec's
   */
  InputStream decompress(InputStream in) throws IOException;
}
