package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.CorruptFileException;
import io.joblib4j.Memory;
import io.joblib4j.VerifyReport;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that checks bytes itself (an object store's manifest holds small outputs with their
 * CRC32C) reports a mismatch as {@link CorruptFileException}: verify calls that entry damaged, and
 * --repair deletes it, as it does when verify's own checksum finds the damage. Any other failure to
 * read stays "unreadable" and is never repaired.
 */
class VerifyStoreChecksumTest {
  @TempDir Path dir;

  static int square(int x) {
    return x * x;
  }

  @Test
  void aStoresOwnChecksumFailureIsADamagedEntryAndRepairDeletesIt() throws Exception {
    Store local = new LocalStore(dir);
    Memory writer = Memory.builder(local).verbose(0).build();
    for (int i = 1; i <= 3; i++) {
      writer.cache(VerifyStoreChecksumTest::square).apply(i);
    }
    String damaged = writer.entries().stream().findFirst().orElseThrow().path();

    Memory checking = Memory.builder(new Refusing(local, damaged + "/output.jl4j", true)).verbose(0).build();
    VerifyReport report = checking.verify(false);
    assertThat(report.problems()).singleElement().satisfies(p -> {
      assertThat(p.kind()).isEqualTo(VerifyReport.Kind.DAMAGED_ENTRY);
      assertThat(p.path()).isEqualTo(damaged);
    });
    checking.verify(true);
    assertThat(writer.entries().stream().map(e -> e.path())).hasSize(2).doesNotContain(damaged);

    String unreadable = writer.entries().stream().findFirst().orElseThrow().path();
    Memory denied = Memory.builder(new Refusing(local, unreadable + "/output.jl4j", false)).verbose(0).build();
    assertThat(denied.verify(true).problems()).singleElement()
        .satisfies(p -> assertThat(p.kind()).isEqualTo(VerifyReport.Kind.UNREADABLE));
    assertThat(writer.entries()).hasSize(2);
  }

  /** {@code inner}, except that opening {@code path} fails: a checksum mismatch, or access denied. */
  private record Refusing(Store inner, String path, boolean corrupt) implements Store {
    @Override
    public Optional<InputStream> open(String p) throws IOException {
      if (p.equals(path)) {
        if (corrupt) {
          throw new CorruptFileException(p, "the bytes do not match the CRC32C recorded beside them");
        }
        throw new java.nio.file.AccessDeniedException(p);
      }
      return inner.open(p);
    }

    @Override
    public URI location() {
      return inner.location();
    }

    @Override
    public Optional<Path> localFile(String p) throws IOException {
      return inner.localFile(p);
    }

    @Override
    public Publication publish(String entry, List<EntryFile> files) throws IOException {
      return inner.publish(entry, files);
    }

    @Override
    public void replace(String p, byte[] content) throws IOException {
      inner.replace(p, content);
    }

    @Override
    public boolean exists(String p) throws IOException {
      return inner.exists(p);
    }

    @Override
    public List<StoreFile> list(String d) throws IOException {
      return inner.list(d);
    }

    @Override
    public List<StoreFile> children(String d) throws IOException {
      return inner.children(d);
    }

    @Override
    public void touch(String entry, Instant accessedAt) throws IOException {
      inner.touch(entry, accessedAt);
    }

    @Override
    public void delete(String p) throws IOException {
      inner.delete(p);
    }

    @Override
    public int sweep(Duration age) throws IOException {
      return inner.sweep(age);
    }

    @Override
    public List<StoreFile> temporaries(Duration age) throws IOException {
      return inner.temporaries(age);
    }

    @Override
    public void close() {
      // the inner store is the test's
    }
  }
}
