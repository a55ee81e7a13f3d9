package io.joblib4j.internal.memory;

import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A store that runs out of room: once {@code budget} bytes have been written into entries, every
 * further write fails with "No space left on device", as a full disk does; or, if {@code halt}
 * is set, the whole JVM halts there, as a crashed writer does.
 */
final class FailingStore implements Store {
  private final Store inner;
  private long budget;
  private final boolean halt;

  FailingStore(Store inner, long budget, boolean halt) {
    this.inner = inner;
    this.budget = budget;
    this.halt = halt;
  }

  @Override
  public Publication publish(String entry, List<EntryFile> files) throws IOException {
    List<EntryFile> limited = new ArrayList<>();
    for (EntryFile f : files) {
      limited.add(new EntryFile(f.name(), out -> f.writer().writeTo(new FilterOutputStream(out) {
        @Override
        public void write(int b) throws IOException {
          spend(1);
          out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          int allowed = (int) Math.min(len, Math.max(budget, 0));
          out.write(b, off, allowed);
          spend(allowed);
          if (allowed < len) {
            out.flush();
            spend(1);
          }
        }
      })));
    }
    return inner.publish(entry, limited);
  }

  private void spend(long n) throws IOException {
    if (budget - n < 0) {
      if (halt) {
        Runtime.getRuntime().halt(77);
      }
      throw new IOException("No space left on device");
    }
    budget -= n;
  }

  @Override
  public URI location() {
    return inner.location();
  }

  @Override
  public Optional<InputStream> open(String path) throws IOException {
    return inner.open(path);
  }

  @Override
  public Optional<Path> localFile(String path) throws IOException {
    return inner.localFile(path);
  }

  @Override
  public void replace(String path, byte[] content) throws IOException {
    inner.replace(path, content);
  }

  @Override
  public boolean exists(String path) throws IOException {
    return inner.exists(path);
  }

  @Override
  public List<StoreFile> list(String dir) throws IOException {
    return inner.list(dir);
  }

  @Override
  public void touch(String entry, Instant accessedAt) throws IOException {
    inner.touch(entry, accessedAt);
  }

  @Override
  public void delete(String path) throws IOException {
    inner.delete(path);
  }

  @Override
  public int sweep(Duration age) throws IOException {
    return inner.sweep(age);
  }

  @Override
  public void close() {
    inner.close();
  }
}
