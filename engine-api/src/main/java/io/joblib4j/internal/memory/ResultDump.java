package io.joblib4j.internal.memory;

import io.joblib4j.Compress;
import io.joblib4j.internal.persist.Dumps;
import io.joblib4j.spi.support.CountingCrcOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The {@code output.jl4j} of an entry being published: the result dumped into the store's stream,
 * counted and checksummed for its metadata.json. A failure of the value itself — it holds a class
 * neither Java serialization nor Kryo can write — is told apart from a failure of the store's stream
 * ({@link Unstorable}), because Memory warns about the first per function and about the second per
 * store.
 */
final class ResultDump {
  private CountingCrcOutputStream counted;

  /** Writes {@code value} to {@code storeStream}. */
  void write(OutputStream storeStream, Object value, Compress compress) throws IOException {
    Watched watched = new Watched(storeStream);
    counted = new CountingCrcOutputStream(watched);
    try {
      Dumps.toStream(value, counted, compress);
    } catch (RuntimeException e) {
      if (watched.failed) {
        throw e; // the store's failure, as it was
      }
      throw new Unstorable(e);
    }
    counted.flush();
  }

  long bytes() {
    return counted.bytes();
  }

  String crcHex() {
    return counted.crcHex();
  }

  /** The result cannot be written, whatever the store. */
  static final class Unstorable extends RuntimeException {
    Unstorable(RuntimeException cause) {
      super(cause.toString(), cause);
    }
  }

  /** The store's stream, noting whether it failed. */
  private static final class Watched extends FilterOutputStream {
    private boolean failed;

    Watched(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      try {
        out.write(b);
      } catch (IOException | RuntimeException e) {
        failed = true;
        throw e;
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException | RuntimeException e) {
        failed = true;
        throw e;
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException | RuntimeException e) {
        failed = true;
        throw e;
      }
    }
  }
}
