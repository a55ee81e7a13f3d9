package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.spi.support.CountingCrcOutputStream;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCopiesTest {
  @TempDir Path dir;

  private static String crc(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b);
    return CountingCrcOutputStream.hex(c.getValue());
  }

  @Test
  void theDefaultFoldersPredictableRootIsUsedOnlyIfItIsThisUsersAlone() throws Exception {
    // <tmp>/joblib4j-<user> could be made first by another local user, who would then read this
    // user's copies or leave copies of their own to be mapped
    byte[] content = "mapped by this user".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Path planted = Files.createDirectory(dir.resolve("joblib4j-planted"));
    Files.setPosixFilePermissions(planted, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    LocalCopies open = new LocalCopies(planted.resolve("store-cache"), 1 << 20, planted);
    assertThatThrownBy(() -> open.get("hdfs://x/a", "a", content.length, crc(content), "hdfs://x/a",
        () -> new ByteArrayInputStream(content)))
        .isInstanceOf(java.io.IOException.class).hasMessageContaining("rwx------").hasMessageContaining("localCacheDir");
    assertThat(planted.resolve("store-cache")).as("nothing written there").doesNotExist();

    Path fresh = dir.resolve("joblib4j-fresh");
    LocalCopies own = new LocalCopies(fresh.resolve("store-cache"), 1 << 20, fresh);
    Path copy = own.get("hdfs://x/a", "a", content.length, crc(content), "hdfs://x/a",
        () -> new ByteArrayInputStream(content));
    assertThat(copy).hasBinaryContent(content);
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)))
        .isEqualTo("rwx------");
  }

  @Test
  void aFileIsDownloadedOnceAndServedFromDiskAfterwards() throws Exception {
    LocalCopies copies = new LocalCopies(dir, 1 << 20);
    byte[] data = new byte[10_000];
    Arrays.fill(data, (byte) 3);
    AtomicInteger downloads = new AtomicInteger();
    LocalCopies.Source source = () -> {
      downloads.incrementAndGet();
      return new ByteArrayInputStream(data);
    };
    Path a = copies.get("store/f/k/output|p1|10000", "output", data.length, crc(data), "store/f/k/output", source);
    Path b = copies.get("store/f/k/output|p1|10000", "output", data.length, crc(data), "store/f/k/output", source);
    assertThat(a).isEqualTo(b);
    assertThat(Files.readAllBytes(a)).isEqualTo(data);
    assertThat(downloads).hasValue(1);
    // a republished entry (new publication id) is a new copy
    Path c = copies.get("store/f/k/output|p2|10000", "output", data.length, crc(data), "store/f/k/output", source);
    assertThat(c).isNotEqualTo(a);
    assertThat(downloads).hasValue(2);
  }

  @Test
  void contentThatDoesNotMatchItsWritersChecksumIsRefusedAndNotKept() {
    LocalCopies copies = new LocalCopies(dir, 1 << 20);
    byte[] data = "the real bytes".getBytes();
    byte[] other = "the fake bytes".getBytes();
    assertThatThrownBy(() -> copies.get("id", "output", data.length, crc(data), "store/x", () -> new ByteArrayInputStream(other)))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("does not match");
    assertThat(dir.toFile().list((d, n) -> !n.endsWith(".lock"))).isEmpty();
  }

  @Test
  void theLeastRecentlyUsedCopiesAreEvictedToStayUnderTheBound() throws Exception {
    LocalCopies copies = new LocalCopies(dir, 25_000);
    byte[] data = new byte[10_000];
    Path[] p = new Path[3];
    for (int i = 0; i < 3; i++) {
      if (i == 2) {
        // the first copy is older than the second: it goes first
        age(p[0], 600_000);
        age(p[1], 300_000);
      }
      p[i] = copies.get("id-" + i, "output", data.length, crc(data), "x", () -> new ByteArrayInputStream(data));
    }
    assertThat(p[0]).doesNotExist();
    assertThat(p[1]).exists();
    assertThat(p[2]).exists();
  }

  private static void age(Path p, long millis) throws Exception {
    Files.getFileAttributeView(p, BasicFileAttributeView.class)
        .setTimes(null, FileTime.fromMillis(System.currentTimeMillis() - millis), null);
  }
}
