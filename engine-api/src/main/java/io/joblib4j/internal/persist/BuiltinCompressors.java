package io.joblib4j.internal.persist;

import com.github.luben.zstd.ZstdOutputStream;
import io.joblib4j.spi.Compressor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.LZMAInputStream;
import org.tukaani.xz.LZMAOutputStream;
import org.tukaani.xz.UnsupportedOptionsException;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * The seven codecs joblib4j ships, with joblib's names, extensions and magic bytes (joblib-features
 * §3.2, plus zstd). Each is a thin adapter over the JDK or a library Spark also ships, listed in
 * engine-api's {@code META-INF/services/io.joblib4j.spi.Compressor} in joblib's order and found
 * there by {@code Compressors}, as a third party's codec would be.
 */
public final class BuiltinCompressors {
  /** Buffer between our writer and the codec; joblib uses 1 MiB too. */
  private static final int BUFFER = 1 << 16;
  /** Decoder memory cap for lzma/xz, in KiB: preset 9 needs 65 MiB; a hostile header asks for GiBs. */
  private static final int XZ_MEMORY_LIMIT_KIB = 256 * 1024;

  private BuiltinCompressors() {}

  private abstract static class Base implements Compressor {
    private final String name;
    private final String extension;
    private final byte[] magic;

    Base(String name, String extension, byte... magic) {
      this.name = name;
      this.extension = extension;
      this.magic = magic;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String extension() {
      return extension;
    }

    @Override
    public byte[] magic() {
      return magic.clone();
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** RFC 1950 zlib stream, readable by Python's {@code zlib.decompress} (joblib's .z files). */
  public static final class Zlib extends Base {
    public Zlib() {
      super("zlib", ".z", (byte) 0x78);
    }

    @Override
    public OutputStream compress(OutputStream out, int level) {
      Deflater deflater = new Deflater(level);
      return new DeflaterOutputStream(out, deflater, BUFFER) {
        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            deflater.end(); // DeflaterOutputStream only ends deflaters it created itself
          }
        }
      };
    }

    @Override
    public InputStream decompress(InputStream in) {
      Inflater inflater = new Inflater();
      return new InflaterInputStream(in, inflater, BUFFER) {
        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          int n = super.read(b, off, len); // read() comes here too
          if (n < 0) {
            if (!inf.finished()) {
              throw new IOException("the zlib stream asks for a preset dictionary, which joblib4j never uses");
            }
            // the Inflater has checked the Adler-32; what it was given beyond its end is garbage
            StrictEnds.requireEnd(in, inf.getRemaining(), "zlib");
          }
          return n;
        }

        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            inflater.end();
          }
        }
      };
    }
  }

  /** RFC 1952 gzip, readable by {@code gzip -d}. */
  public static final class Gzip extends Base {
    public Gzip() {
      super("gzip", ".gz", (byte) 0x1f, (byte) 0x8b);
    }

    @Override
    public OutputStream compress(OutputStream out, int level) throws IOException {
      return new GZIPOutputStream(out, BUFFER) {
        {
          def.setLevel(level);
        }
      };
    }

    /**
     * Not the JDK's GZIPInputStream, which silently ignores bytes after the last member that do not
     * form a gzip header ({@link GzipMembers}). Members that follow each other (as {@code cat a.gz
     * b.gz} makes) are read as one stream.
     */
    @Override
    public InputStream decompress(InputStream in) throws IOException {
      return new GzipMembers(in, BUFFER);
    }
  }

  /** bzip2; the level is the block size in 100 kB units, as in {@code bzip2 -1..-9}. */
  public static final class Bz2 extends Base {
    public Bz2() {
      super("bz2", ".bz2", (byte) 'B', (byte) 'Z');
    }

    @Override
    public OutputStream compress(OutputStream out, int level) throws IOException {
      return new BZip2CompressorOutputStream(out, level);
    }

    @Override
    public InputStream decompress(InputStream in) throws IOException {
      // concatenated: read on after the end of a stream, refusing anything that is not another one
      return new BZip2CompressorInputStream(in, true);
    }
  }

  /** The legacy .lzma ("alone") format, as Python's {@code lzma.FORMAT_ALONE}; level = xz preset. */
  public static final class Lzma extends Base {
    public Lzma() {
      super("lzma", ".lzma", (byte) 0x5d, (byte) 0x00);
    }

    @Override
    public OutputStream compress(OutputStream out, int level) throws IOException {
      return new LZMAOutputStream(out, options(level), -1);
    }

    @Override
    public InputStream decompress(InputStream in) throws IOException {
      // the format has no trailer to find its end by, only the end marker; nothing may follow it
      return StrictEnds.endingWith(new LZMAInputStream(in, XZ_MEMORY_LIMIT_KIB), in, "lzma");
    }
  }

  /** The .xz container (LZMA2); level = xz preset. */
  public static final class Xz extends Base {
    public Xz() {
      super("xz", ".xz", (byte) 0xfd, (byte) '7', (byte) 'z', (byte) 'X', (byte) 'Z', (byte) 0x00);
    }

    @Override
    public OutputStream compress(OutputStream out, int level) throws IOException {
      return new XZOutputStream(out, options(level));
    }

    @Override
    public InputStream decompress(InputStream in) throws IOException {
      // reads every stream to its index and footer; after them only stream padding or another stream
      return new XZInputStream(in, XZ_MEMORY_LIMIT_KIB);
    }
  }

  private static LZMA2Options options(int level) throws UnsupportedOptionsException {
    return new LZMA2Options(level);
  }

  /**
   * The LZ4 frame format (what Python's {@code lz4.frame} and the {@code lz4} tool write). Levels 1-2
   * use the fast compressor (joblib's default), 3-9 the high-compression one at that level.
   */
  public static final class Lz4 extends Base {
    public Lz4() {
      super("lz4", ".lz4", (byte) 0x04, (byte) 0x22, (byte) 0x4d, (byte) 0x18);
    }

    @Override
    public int defaultLevel() {
      return 1;
    }

    @Override
    public OutputStream compress(OutputStream out, int level) throws IOException {
      LZ4Factory f = LZ4Factory.fastestInstance();
      LZ4Compressor compressor = level <= 2 ? f.fastCompressor() : f.highCompressor(level);
      return new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB, -1L, compressor,
          XXHashFactory.fastestInstance().hash32(), LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
          LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM);
    }

    @Override
    public InputStream decompress(InputStream in) throws IOException {
      // the safe decompressor: it never reads or writes outside its buffers on hostile input
      // reads frame after frame; at the end of the last, refuses anything that is not another frame
      return new LZ4FrameInputStream(in, LZ4Factory.fastestInstance().safeDecompressor(),
          XXHashFactory.fastestInstance().hash32());
    }
  }

  /** Zstandard (zstd-jni); levels 1-9 are zstd's own levels 1-9. */
  public static final class Zstd extends Base {
    public Zstd() {
      super("zstd", ".zst", (byte) 0x28, (byte) 0xb5, (byte) 0x2f, (byte) 0xfd);
    }

    @Override
    public OutputStream compress(OutputStream out, int level) throws IOException {
      return new ZstdOutputStream(out, level);
    }

    @Override
    public InputStream decompress(InputStream in) {
      return new ZstdFrameInput(in);
    }
  }
}
