package io.joblib4j.internal.persist;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.CorruptFileException;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.internal.persist.npy.NumpyFiles;
import io.joblib4j.spi.Compressor;
import io.joblib4j.spi.Compressors;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.UUID;

/**
 * dump and load over files and streams: picks the codec, writes through a temporary file renamed
 * into place (so a failed dump never leaves a half-written file where a good one was), detects the
 * codec from magic bytes on load, and turns every way a file can be bad into a typed exception.
 */
public final class Persistence {
  private static final LazyLogger LOG = LazyLogger.of(Persistence.class);
  private static final int BUFFER = 1 << 20;
  private static final int PEEK = 16;

  private Persistence() {}

  /** Writes {@code value} to {@code file}; {@code compressor} null means uncompressed. */
  public static void dump(Object value, Path file, Compressor compressor, int level) {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp-" + UUID.randomUUID());
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        if (compressor == null) {
          write(value, Sink.of(ch));
        } else {
          try (OutputStream out = compressor.compress(
              new BufferedOutputStream(Channels.newOutputStream(ch), BUFFER), level)) {
            write(value, Sink.of(out));
          }
        }
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
        // best effort: the file has a unique name and is hidden
      }
    }
  }

  /** Writes {@code value} to {@code out}, which is flushed but not closed. */
  public static void dump(Object value, OutputStream out, Compressor compressor, int level) {
    try {
      OutputStream keepOpen = new FilterOutputStream(out) {
        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
          out.flush();
        }
      };
      try (OutputStream o = compressor == null ? new BufferedOutputStream(keepOpen, BUFFER)
          : compressor.compress(new BufferedOutputStream(keepOpen, BUFFER), level)) {
        write(value, Sink.of(o));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot dump to the stream: " + e.getMessage(), e);
    }
  }

  private static void write(Object value, Sink sink) throws IOException {
    new ValueEncoder(new ContainerWriter(sink)).writeRoot(value);
  }

  /** Reads the value in {@code file}. */
  public static Object load(Path file, LoadOptions options) {
    MmapMode mmap = options.mmapMode().orElse(null);
    // PRIVATE (copy-on-write) mappings also need a channel opened for writing, a JDK rule
    StandardOpenOption[] opts = mmap == MmapMode.READ_WRITE || mmap == MmapMode.COPY_ON_WRITE
        ? new StandardOpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE}
        : new StandardOpenOption[] {StandardOpenOption.READ};
    boolean checkMapped = mmap != null && options.verifyMappedData();
    long checkStart = System.currentTimeMillis();
    try {
      // stat before and after the open: the version then is the one the channel reads
      VerifiedFiles.Version before = checkMapped ? VerifiedFiles.version(file) : null;
      try (FileChannel ch = FileChannel.open(file, opts)) {
        return load(ch, file, options, before, checkStart);
      }
    } catch (NoSuchFileException e) {
      throw new UncheckedIOException("cannot load " + file + ": the file does not exist"
          + (file.isAbsolute() ? "" : " (relative to the working directory " + Path.of("").toAbsolutePath() + ")")
          + "; check the path and that the file was written", e);
    } catch (AccessDeniedException e) {
      throw new UncheckedIOException("cannot load " + file + ": permission denied; check the permissions of the"
          + " file and its folders", e);
    } catch (FileSystemException e) {
      // its message is the path again: say the reason instead
      throw new UncheckedIOException("cannot load " + file + ": " + (e.getReason() != null ? e.getReason()
          : e.getClass().getSimpleName()), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the value in {@code file}, already open as {@code ch} (for a private mapping, open for
   * writing too): for callers that opened the file themselves without following links (Memory's
   * local store), so that what is mapped is the file they checked. Mapped arrays remember {@code
   * file} as their path; the channel may be closed once this returns. Mapped data is checked as
   * {@link #load(Path, LoadOptions)} checks it, the file's version read without following links.
   */
  public static Object load(FileChannel ch, Path file, LoadOptions options) throws IOException {
    boolean checkMapped = options.mmapMode().isPresent() && options.verifyMappedData();
    long checkStart = System.currentTimeMillis();
    VerifiedFiles.Version opened = checkMapped ? VerifiedFiles.version(file, LinkOption.NOFOLLOW_LINKS) : null;
    return load(ch, file, options, opened, checkStart);
  }

  /**
   * Loads from the open file. {@code version}, when not null, is the version of the file as the
   * channel was opened: its mapped data is checked unless that version was checked before, and it
   * is remembered as checked if the file did not change meanwhile.
   */
  private static Object load(FileChannel ch, Path file, LoadOptions options, VerifiedFiles.Version version,
      long checkStart) throws IOException {
    String name = file.toString();
    MmapMode mmap = options.mmapMode().orElse(null);
    boolean checkData = version != null && !(VerifiedFiles.verified(version)
        && version.equals(VerifiedFiles.version(file, version.links())) && ch.size() == version.size());
    ByteBuffer peek = ByteBuffer.allocate(PEEK);
    while (peek.hasRemaining() && ch.read(peek, peek.position()) > 0) {
      // positional reads leave the channel at 0 for the stream path
    }
    byte[] head = Arrays.copyOf(peek.array(), peek.position());
    if (startsWith(head, Format.MAGIC)) {
      Object value = read(Source.of(ch), name, mmap, checkData, file, options);
      // a file with block sums was checked only where it was read, lazily, by each map: never remembered
      if (checkData && !hasBlockSums(head) && version.equals(VerifiedFiles.version(file, version.links()))) {
        VerifiedFiles.remember(version, checkStart); // unchanged while it was checked
      }
      return value;
    }
    if (NumpyFiles.isNpy(head)) {
      return NumpyFiles.loadNpy(ch, file, options);
    }
    if (NumpyFiles.isZip(head)) {
      return NumpyFiles.loadNpz(file, options);
    }
    Compressor c = detect(head, name);
    if (mmap != null) {
      LOG.get().warn("{} is compressed with {}: it cannot be memory-mapped and is loaded in memory instead"
          + " (mmap mode {} ignored); dump without compression to map it", name, c.name(), mmap);
    }
    // a buffer no larger than the file: zeroing 1 MiB would cost a small file's load more than reading it
    int buffer = (int) Math.max(PEEK, Math.min(BUFFER, ch.size()));
    InputStream raw = new FileIoTagging(new BufferedInputStream(Channels.newInputStream(ch), buffer));
    return readCompressed(c, raw, name, options);
  }

  /**
   * Reads one value from {@code in}, leaving an uncompressed stream just after the container. A
   * compressed stream is read to its end: it holds one dump and nothing else.
   */
  public static Object load(InputStream in, LoadOptions options) {
    return load(in, "stream", false, options);
  }

  /**
   * Reads the one value {@code in} holds, which must end where the value does, compressed or not
   * (a stored cache entry); errors name {@code name}.
   */
  public static Object loadWhole(InputStream in, String name, LoadOptions options) {
    return load(in, name, true, options);
  }

  private static Object load(InputStream in, String name, boolean whole, LoadOptions options) {
    if (options.mmapMode().isPresent()) {
      LOG.get().warn("a stream cannot be memory-mapped: loading in memory (mmap mode {} ignored);"
          + " load from a Path to map", options.mmapMode().get());
    }
    try {
      PushbackInputStream p = new PushbackInputStream(new FileIoTagging(in), PEEK);
      byte[] head = p.readNBytes(PEEK);
      p.unread(head);
      if (startsWith(head, Format.MAGIC)) {
        Object value = read(Source.of(p, options.maxDecompressedBytes()), name, null, false, null, options);
        if (whole) {
          requireNothingAfterTheEndRecord(p, name);
        }
        return value;
      }
      if (NumpyFiles.isNpy(head)) {
        Object value = NumpyFiles.loadNpy(p, name, options);
        if (whole) {
          requireNothingAfterTheEndRecord(p, name);
        }
        return value;
      }
      if (NumpyFiles.isZip(head)) {
        throw new CorruptFileException(name, "a zip archive (a numpy .npz?): joblib4j reads a .npz from a file"
            + " only (Joblib.load(Path)), where its index at the end can be read first");
      }
      return readCompressed(detect(head, name), p, name, options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load " + name + ": " + e.getMessage(), e);
    }
  }

  private static Object readCompressed(Compressor c, InputStream raw, String name, LoadOptions options)
      throws IOException {
    InputStream in;
    try {
      in = new CodecInput(c.decompress(raw));
    } catch (FileIoException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(name, "invalid " + c.name() + " data: " + e.getMessage(), e);
    }
    try (in) {
      Object value = read(Source.of(in, options.maxDecompressedBytes()), name, null, false, null, options);
      // reading the stream to its end makes the codec check its trailer (gzip's CRC32, lz4's content
      // checksum, xz's index...) and what follows it: without this a file cut in its trailer loads
      requireNothingAfterTheEndRecord(in, name);
      return value;
    } catch (CodecDataException e) {
      Throwable cause = e.getCause();
      if (cause instanceof EOFException) {
        throw new CorruptFileException(name, "truncated " + c.name() + " data: the file ends before the"
            + " compressed stream does (" + cause.getMessage() + ")", cause);
      }
      throw new CorruptFileException(name, "invalid " + c.name() + " data: " + cause.getMessage(), cause);
    }
  }

  private static void requireNothingAfterTheEndRecord(InputStream in, String name) throws IOException {
    long extra = StrictEnds.count(in, StrictEnds.COUNT_LIMIT);
    if (extra > 0) {
      throw new CorruptFileException(name, extra + (extra >= StrictEnds.COUNT_LIMIT ? " or more" : "")
          + " unexpected bytes after the end record");
    }
  }

  private static Compressor detect(byte[] head, String name) {
    if (head.length == 0) {
      throw new CorruptFileException(name, "empty: no joblib4j data");
    }
    return Compressors.detect(head, head.length).orElseThrow(() -> {
      if ((head[0] & 0xFF) == 0x80 && head.length > 1 && head[1] >= 2 && head[1] <= 5) {
        return new CorruptFileException(name, "bad magic bytes: this looks like a Python pickle (a joblib file"
            + " written by Python?); joblib4j reads only its own container format");
      }
      return new CorruptFileException(name, "bad magic bytes " + hex(head)
          + ": neither a joblib4j container nor data of a known compressor " + Compressors.names());
    });
  }

  private static Object read(Source src, String name, MmapMode mmap, boolean checkMappedData, Path file,
      LoadOptions options) throws IOException {
    HeapBudget heap = new HeapBudget(name, options.maxHeapBytes());
    ContainerReader reader = new ContainerReader(src, name, mmap, checkMappedData, file, heap);
    try {
      reader.readHeader();
      AllowList allow = new AllowList(options, contextLoader(), name);
      return new ValueDecoder(reader, allow, heap, options.maxDepth()).readRoot();
    } catch (EOFException e) {
      throw new CorruptFileException(name, "truncated: the data ends in the middle of a record");
    } catch (Source.LimitException e) {
      throw new CorruptFileException(name, e.getMessage());
    } finally {
      heap.release();
    }
    // Nothing else is caught here: bad data is reported by the decoders as CorruptFileException
    // where they find it, a codec's complaints arrive tagged as CodecDataException, and anything
    // else (a RuntimeException, an OutOfMemoryError) is a bug or a real lack of memory and must be
    // seen as such, not as a damaged file.
  }

  private static ClassLoader contextLoader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : Persistence.class.getClassLoader();
  }

  /** Whether a container's header (at least its first 10 bytes) says version 2 or later. */
  private static boolean hasBlockSums(byte[] head) {
    return head.length < 10 || ((head[8] & 0xFF) | (head[9] & 0xFF) << 8) >= 2;
  }

  private static boolean startsWith(byte[] head, byte[] magic) {
    return head.length >= magic.length && Arrays.equals(head, 0, magic.length, magic, 0, magic.length);
  }

  private static String hex(byte[] b) {
    // not String.format: a foreign file's first load parses a format per byte, and fuzzers load thousands a second
    return "0x" + HexFormat.of().formatHex(b, 0, Math.min(b.length, 8));
  }

  /** An I/O error of the underlying file or stream, as opposed to bad data found by a codec. */
  private static final class FileIoException extends IOException {
    private static final long serialVersionUID = 1L;

    FileIoException(IOException cause) {
      super(cause.getMessage(), cause);
    }

    @Override
    public synchronized IOException getCause() {
      return (IOException) super.getCause();
    }
  }

  /** Whatever a decompressor threw while it read: its data is bad (or cut), as opposed to our decoder failing. */
  private static final class CodecDataException extends IOException {
    private static final long serialVersionUID = 1L;

    CodecDataException(Exception cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** A decompressor's stream, its complaints tagged as {@link CodecDataException} (I/O errors of the file pass). */
  private static final class CodecInput extends FilterInputStream {
    CodecInput(InputStream codec) {
      super(codec);
    }

    @Override
    public int read() throws IOException {
      try {
        return in.read();
      } catch (FileIoException e) {
        throw e;
      } catch (IOException | RuntimeException e) {
        throw new CodecDataException(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return in.read(b, off, len);
      } catch (FileIoException e) {
        throw e;
      } catch (IOException | RuntimeException e) {
        throw new CodecDataException(e);
      }
    }

    @Override
    public void close() throws IOException {
      try {
        in.close();
      } catch (FileIoException e) {
        throw e;
      } catch (IOException | RuntimeException e) {
        throw new CodecDataException(e);
      }
    }
  }

  /** Marks I/O errors of the raw input so they are reported as I/O, not as corruption. */
  private static final class FileIoTagging extends FilterInputStream {
    FileIoTagging(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return in.read();
      } catch (IOException e) {
        throw new FileIoException(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return in.read(b, off, len);
      } catch (IOException e) {
        throw new FileIoException(e);
      }
    }
  }
}
