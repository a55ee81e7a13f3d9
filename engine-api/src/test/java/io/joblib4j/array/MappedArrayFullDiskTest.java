package io.joblib4j.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.internal.array.ArrayFiles;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mapped arrays on a full disk: the file's space is reserved when it is created, so an array that
 * does not fit fails at creation with an {@link InsufficientSpaceException} naming the file and the
 * file system, and one that was created can be filled whatever others write to the disk afterwards
 * (before, filling a sparse file on a full disk faulted: {@code InternalError: a fault occurred in a
 * recent unsafe memory access operation}).
 */
class MappedArrayFullDiskTest {
  @TempDir Path dir;

  /** On a 1 MiB tmpfs of its own (a mount namespace: root, or a user namespace), in a child JVM. */
  @Test
  void onASmallTmpfsAnArrayThatDoesNotFitFailsAtCreationAndOneThatFitsCanAlwaysBeFilled() throws Exception {
    Path mount = Files.createDirectories(dir.resolve("tmpfs"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String script = "mount -t tmpfs -o size=1m tmpfs '" + mount + "' || exit 99; exec '" + java
        + "' -Xmx128m -cp '" + System.getProperty("java.class.path") + "' '" + OnSmallDisk.class.getName()
        + "' '" + mount + "'";
    Process p;
    try {
      p = new ProcessBuilder("unshare", "-rm", "sh", "-c", script).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    } catch (IOException e) {
      skipLoudly("no unshare(1) here to mount a small tmpfs: " + e.getMessage());
      return;
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() == 99 || out.contains("unshare: ")) {
      skipLoudly("cannot mount a tmpfs in a new mount namespace here (needs root, or unprivileged user"
          + " namespaces, which some systems turn off, e.g. Ubuntu 24.04's AppArmor default): " + out.trim());
    }
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("too big: io.joblib4j.array.InsufficientSpaceException: cannot create the mapped array "
        + mount.resolve("too-big.i8") + " (2097152 bytes): the file system holding it (" + mount + " (tmpfs)) has only");
    assertThat(out).contains("too big left behind: false");
    assertThat(out).contains("fits: filled, sum 614400");
    assertThat(out).contains("after the disk filled up: io.joblib4j.array.InsufficientSpaceException");
    assertThat(out).doesNotContain("InternalError");
  }

  /**
   * Skips the full-disk case where no small file system can be mounted, and says so in the build's
   * output as well as in the test report: a skip must not pass for a run. There is no faithful
   * stand-in without a mount: a file size limit ({@code ulimit -f}) fails writes with EFBIG, not the
   * ENOSPC of a full disk, and cannot fill the disk under an array that already exists; the /dev/full
   * test below still checks the translation of ENOSPC.
   */
  private static void skipLoudly(String why) {
    System.err.println("WARNING: MappedArrayFullDiskTest did NOT run the full-disk case on a 1 MiB tmpfs: " + why);
    Assumptions.abort("full-disk case not run: " + why);
  }

  /** Runs in the child JVM, on a 1 MiB tmpfs at {@code args[0]}. */
  public static final class OnSmallDisk {
    public static void main(String[] args) throws Exception {
      Path mount = Path.of(args[0]);
      try {
        NDArray a = NDArray.createMapped(mount.resolve("too-big.i8"), DType.INT8, 2 << 20);
        a.fill(1);
        System.out.println("too big: created and filled");
      } catch (RuntimeException | InternalError e) {
        System.out.println("too big: " + e);
      }
      System.out.println("too big left behind: " + Files.exists(mount.resolve("too-big.i8")));
      NDArray fits = NDArray.createMapped(mount.resolve("fits.i8"), DType.INT8, 600 << 10);
      // another writer takes every block that is left
      try (FileChannel filler = FileChannel.open(mount.resolve("filler"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        java.nio.ByteBuffer junk = java.nio.ByteBuffer.allocate(64 << 10);
        while (true) {
          junk.clear();
          filler.write(junk);
        }
      } catch (IOException full) {
        // the disk is full now
      }
      try {
        fits.fill(1);
        long sum = 0;
        for (long i = 0; i < fits.size(); i++) {
          sum += fits.getLong(i);
        }
        System.out.println("fits: filled, sum " + sum);
      } catch (InternalError e) {
        System.out.println("fits: " + e);
      }
      try {
        NDArray late = NDArray.createMapped(mount.resolve("late.i8"), DType.INT8, 300 << 10);
        late.fill(1);
        System.out.println("after the disk filled up: created and filled");
      } catch (RuntimeException | InternalError e) {
        System.out.println("after the disk filled up: " + e);
      }
    }
  }

  /** The same translation without a mount: a disk that fills while the file is reserved (/dev/full). */
  @Test
  void aDiskThatFillsWhileTheFileIsReservedIsTheSameTypedError() throws Exception {
    Path full = Path.of("/dev/full");
    Assumptions.assumeTrue(Files.isWritable(full), "no /dev/full here");
    Method writeZeros = ArrayFiles.class.getDeclaredMethod("writeZeros", FileChannel.class, Path.class, long.class);
    writeZeros.setAccessible(true);
    try (FileChannel ch = FileChannel.open(full, StandardOpenOption.WRITE)) {
      assertThatThrownBy(() -> {
        try {
          writeZeros.invoke(null, ch, dir.resolve("a.f64"), 1L << 20);
        } catch (java.lang.reflect.InvocationTargetException e) {
          throw e.getCause();
        }
      }).isInstanceOf(InsufficientSpaceException.class)
          .hasMessageContaining("cannot create the mapped array " + dir.resolve("a.f64") + " (1048576 bytes)")
          .hasMessageContaining("ran out of space while the file was reserved")
          .hasRootCauseMessage("No space left on device");
    }
  }

  @Test
  void anArrayLargerThanTheFreeSpaceFailsAtOnceAndLeavesNoFile() {
    Path file = dir.resolve("huge.f64");
    assertThatThrownBy(() -> NDArray.createMapped(file, DType.FLOAT64, 1L << 50))
        .isInstanceOf(InsufficientSpaceException.class)
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining(file + " (" + (8L << 50) + " bytes)")
        .hasMessageContaining("bytes free")
        .satisfies(e -> assertThat(((InsufficientSpaceException) e).requiredBytes()).isEqualTo(8L << 50));
    assertThat(file).doesNotExist();
  }

  @Test
  void aCreatedArrayHasEveryBlockAllocatedNotAHole() throws Exception {
    for (int elements : new int[] {1_000, 1 << 20}) { // zeros written, and the system's fallocate
      Path file = dir.resolve("reserved-" + elements + ".f64");
      try (NDArray a = NDArray.createMapped(file, DType.FLOAT64, elements)) {
        assertThat(a.getDouble(elements - 1)).isZero();
      }
      assertThat(allocatedBytes(file)).isGreaterThanOrEqualTo(elements * 8L);
    }
  }

  @Test
  void reservationCanBeTurnedOffToKeepFilesSparse() throws Exception {
    System.setProperty(ArrayFiles.RESERVE_PROPERTY, "false");
    try {
      Path file = dir.resolve("sparse.f64");
      NDArray.createMapped(file, DType.FLOAT64, 1 << 20).close();
      assertThat(allocatedBytes(file)).isLessThan(1 << 20);
    } finally {
      System.clearProperty(ArrayFiles.RESERVE_PROPERTY);
    }
  }

  /** Blocks the file system gave the file (du's figure), from stat(1). */
  private static long allocatedBytes(Path file) throws Exception {
    Process p = new ProcessBuilder(List.of("stat", "-c", "%b %B", file.toString())).start();
    String[] f = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().split(" ");
    assertThat(p.waitFor()).isZero();
    return Long.parseLong(f[0]) * Long.parseLong(f[1]);
  }
}
