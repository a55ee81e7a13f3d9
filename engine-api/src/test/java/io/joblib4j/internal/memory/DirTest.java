package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
