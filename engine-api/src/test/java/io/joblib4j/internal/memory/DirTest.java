package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Folder handles report a rename onto an occupied folder as the lost race it is: publishers and
 * claims catch {@code DirectoryNotEmptyException} to learn that another writer won, and the JDK
 * throws a plain {@code FileSystemException} for ENOTEMPTY. Found when two JVMs taking claims on
 * the same keys both computed one (MemoryReliabilityTest): the loser's rename failed that way just
 * as the winner released its claim, and it took the store for broken and computed without one.
 */
class DirTest {
  @TempDir Path dir;

  @Test
  void aRenameOntoAnOccupiedFolderIsALostRace() throws Exception {
    Files.createDirectories(dir.resolve("mine"));
    Files.writeString(Files.createDirectories(dir.resolve("theirs")).resolve("claim.json"), "{}");
    try (Dir root = Dir.open(dir)) {
      assertThatThrownBy(() -> root.move("mine", root, "theirs")).isInstanceOf(DirectoryNotEmptyException.class);
    }
  }

  /**
   * An open that O_NOFOLLOW refused (ELOOP) is a link refusal by the error alone. Before, the
   * handle looked at the name again to tell, and a thread that had swapped the folder for a link
   * and back by then made it a plain I/O error: a {@code clear()} racing SymlinkSwapTest's swapper
   * failed with "Too many levels of symbolic links" instead of refusing the link (at load 3).
   */
  @Test
  void anOpenRefusedBecauseTheNameWasALinkIsALinkRefusalWhateverIsThereAfter() throws Exception {
    Path real = Files.createDirectories(dir.resolve("real"));
    Files.createSymbolicLink(dir.resolve("f"), real);
    java.nio.file.FileSystemException looped;
    try (var ds = (java.nio.file.SecureDirectoryStream<Path>) Files.newDirectoryStream(dir)) {
      looped = org.assertj.core.api.Assertions.catchThrowableOfType(
          () -> ds.newDirectoryStream(dir.getFileSystem().getPath("f"), java.nio.file.LinkOption.NOFOLLOW_LINKS),
          java.nio.file.FileSystemException.class);
    }
    assertThat(looped).as("this JDK's error for O_NOFOLLOW on a link").isNotNull();
    Files.delete(dir.resolve("f"));
    Files.createDirectories(dir.resolve("f")); // swapped back: a folder again
    assertThat(Dir.refusedALink(looped)).isTrue();
    assertThat(Dir.refusedALink(new java.nio.file.FileSystemException("f", null, "Permission denied"))).isFalse();
    assertThat(Dir.refusedALink(new java.nio.file.FileSystemException("f"))).isFalse();
  }

  /**
   * The root's handle is shared by every thread of a store, and its directory stream iterates once:
   * threads listing it at the same moment both took the one iteration ("Iterator already
   * obtained", which made a Memory report its cache unusable while limits were being kept).
   */
  @Test
  void threadsListingOneFolderAtOnceEachGetItsNames() throws Exception {
    for (String name : new String[] {"a", "b", "c"}) {
      Files.createDirectories(dir.resolve(name));
    }
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 500; round++) {
        try (Dir shared = Dir.open(dir)) {
          CyclicBarrier together = new CyclicBarrier(threads);
          List<Future<List<String>>> listed = new ArrayList<>();
          for (int t = 0; t < threads; t++) {
            listed.add(pool.submit(() -> {
              together.await();
              return shared.names();
            }));
          }
          for (Future<List<String>> names : listed) {
            assertThat(names.get()).containsExactlyInAnyOrder("a", "b", "c");
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
