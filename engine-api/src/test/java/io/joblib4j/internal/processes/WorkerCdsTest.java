package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerCdsTest {
  private static final long NOW = 1_800_000_000_000L;
  @TempDir Path dir;

  private Path file(String name, Duration age) throws Exception {
    Path p = Files.writeString(dir.resolve(name), name);
    Files.setLastModifiedTime(p, FileTime.fromMillis(NOW - age.toMillis()));
    return p;
  }

  @Test
  void archivesAndFolderJarsOlderThanAWeekGoButTheNewestEightOfEachKind() throws Exception {
    // every jar build and every recompiled class folder makes new ones: without this the folder
    // grows for as long as the machine runs
    List<Path> oldArchives = new ArrayList<>();
    List<Path> oldJars = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      oldArchives.add(file("w-old" + i + ".jsa", Duration.ofDays(8 + i)));
      oldJars.add(file("cp-old" + i + ".jar", Duration.ofDays(8 + i)));
    }
    Path recentArchive = file("w-recent.jsa", Duration.ofDays(1));
    Path recentJar = file("cp-recent.jar", Duration.ofHours(1));
    Path lock = file("w-old0.lock", Duration.ofDays(30));

    WorkerCds.sweep(dir, NOW);

    assertThat(recentArchive).exists();
    assertThat(recentJar).exists();
    assertThat(lock).as("locks are settled by the claim, not by age").exists();
    // the newest 8 of each kind stay whatever their age: the recent one and the 7 youngest old ones
    assertThat(oldArchives.subList(0, 7)).allMatch(Files::exists);
    assertThat(oldArchives.subList(7, 12)).noneMatch(Files::exists);
    assertThat(oldJars.subList(0, 7)).allMatch(Files::exists);
    assertThat(oldJars.subList(7, 12)).noneMatch(Files::exists);
  }

  @Test
  void aFewArchivesStayHoweverOldAndHalfMadeFilesGoAfterTenMinutes() throws Exception {
    Path ancient = file("w-ancient.jsa", Duration.ofDays(400));
    Path staleRecording = file("w-k-1-1.tmp", Duration.ofMinutes(11));
    Path freshRecording = file("w-k-2-1.tmp", Duration.ofMinutes(1));
    Path staleJar = file("cp-123.jar.tmp", Duration.ofMinutes(11));
    Path freshJar = file("cp-456.jar.tmp", Duration.ofMinutes(1));

    WorkerCds.sweep(dir, NOW);

    assertThat(ancient).as("one of the newest eight").exists();
    assertThat(staleRecording).doesNotExist();
    assertThat(staleJar).doesNotExist();
    assertThat(freshRecording).as("may still be recording").exists();
    assertThat(freshJar).as("may still be written").exists();
  }
}
