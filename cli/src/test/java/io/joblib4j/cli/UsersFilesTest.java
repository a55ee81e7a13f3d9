package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command never deletes or writes what is not joblib4j's (issue 37's reproductions, as a user
 * ran them): a folder named like a function's, a {@code stages/} folder of the user's, and any
 * location that holds no cache at all.
 */
class UsersFilesTest {
  @TempDir Path dir;

  private Path usersFolderNamedLikeAFunctionFolder(Path at) throws IOException {
    Path exports = Files.createDirectories(at.resolve("exports-20240101abcd/sub"));
    Files.writeString(at.resolve("exports-20240101abcd/report.csv"), "mine\n");
    Files.writeString(exports.resolve("x.csv"), "x\n");
    return at.resolve("exports-20240101abcd");
  }

  @Test
  void verifyRepairAtAFolderThatHoldsNoCacheChangesNothingAndSaysSo() throws IOException {
    Path u = Files.createDirectories(dir.resolve("u"));
    usersFolderNamedLikeAFunctionFolder(u);
    Map<String, String> before = Caches.snapshot(u);

    Run r = Run.of("verify", u.toString(), "--repair");

    assertThat(r.code()).as(r.toString()).isEqualTo(Main.NO_CACHE);
    assertThat(r.err()).contains("no joblib4j cache at " + u, "nothing was changed");
    assertThat(Caches.snapshot(u)).isEqualTo(before);
    assertThat(u.resolve(".gitignore")).doesNotExist();
  }

  @Test
  void verifyRepairInsideACacheLeavesAUsersFolderNamedLikeAFunctionFolder() throws IOException {
    Path cache = dir.resolve("cache");
    Caches.fill(Caches.at(cache));
    Path exports = usersFolderNamedLikeAFunctionFolder(cache);
    Map<String, String> before = Caches.snapshot(exports);

    Run ls = Run.of("ls", cache.toString());
    Run verify = Run.of("verify", cache.toString(), "--repair");

    assertThat(ls.out()).doesNotContain("exports");
    assertThat(verify.code()).as(verify.toString()).isEqualTo(Main.OK);
    assertThat(verify.err()).contains("7 entries checked: no problem found");
    assertThat(Caches.snapshot(exports)).isEqualTo(before);
  }

  @Test
  void stagesClearLeavesAStagesFolderThatHoldsNoStageCache() throws IOException {
    Path u2 = Files.createDirectories(dir.resolve("u2/stages/old-run"));
    Files.writeString(u2.resolve("result.csv"), "data\n");
    Path location = dir.resolve("u2");
    Map<String, String> before = Caches.snapshot(location);

    Run r = Run.of("stages", "clear", location.toString());

    assertThat(r.code()).as(r.toString()).isEqualTo(Main.NO_CACHE);
    assertThat(Caches.snapshot(location)).isEqualTo(before);
  }

  @Test
  void stagesClearAtAMemoryCacheLeavesTheUsersStagesFolder() throws IOException {
    Path cache = dir.resolve("cache");
    Caches.fill(Caches.at(cache));
    Path old = Files.createDirectories(cache.resolve("stages/old-run"));
    Files.writeString(old.resolve("result.csv"), "data\n");
    Path named = Files.createDirectories(cache.resolve("stages/Pipeline.clean-0123456789ab/data"));
    Files.writeString(named.resolve("part-0.csv"), "data\n");
    Map<String, String> before = Caches.snapshot(cache.resolve("stages"));

    Run clear = Run.of("stages", "clear", cache.toString());
    Run sweep = Run.of("stages", "sweep", cache.toString(), "--older-than", "0s");

    assertThat(clear.code()).as(clear.toString()).isZero();
    assertThat(clear.err()).contains("deleted 0 stage entries");
    assertThat(sweep.code()).as(sweep.toString()).isZero();
    assertThat(Caches.snapshot(cache.resolve("stages"))).isEqualTo(before);
  }

  @Test
  void everyCommandThatDeletesIsRefusedWhereNoCacheIsAndWritesNoGitignore() throws IOException {
    Path mine = Files.createDirectories(dir.resolve("work-tree"));
    Files.writeString(mine.resolve("notes.txt"), "mine\n");
    usersFolderNamedLikeAFunctionFolder(mine);
    Map<String, String> before = Caches.snapshot(mine);
    String at = mine.toString();
    String[][] commands = {
      {"rm", at, "exports"}, {"rm", at, "exports", "--dry-run"}, {"prune", at, "--max-age", "0s"},
      {"prune", at, "--max-items", "1", "--dry-run"}, {"verify", at, "--repair"},
      {"stages", "rm", at, "Pipeline.clean"}, {"stages", "clear", at}, {"stages", "clear", at, "Pipeline.clean"},
      {"stages", "prune", at, "--max-age", "0s"}, {"stages", "sweep", at, "--older-than", "0s"},
    };
    for (String[] command : commands) {
      Run r = Run.of(command);
      assertThat(r.code()).as(String.join(" ", command) + "\n" + r).isEqualTo(Main.NO_CACHE);
      assertThat(r.err()).as(String.join(" ", command)).contains("no joblib4j cache at");
    }
    assertThat(Caches.snapshot(mine)).isEqualTo(before);
  }

  @Test
  void anEmptyCacheIsStillACache() throws IOException {
    Path cache = dir.resolve("cache");
    Caches.fill(Caches.at(cache));
    Run clear = Run.of("prune", cache.toString(), "--max-age", "0s");
    assertThat(clear.code()).as(clear.toString()).isZero();
    assertThat(clear.err()).contains("deleted 7 entries");
    Run again = Run.of("prune", cache.toString(), "--max-age", "0s");
    assertThat(again.code()).as(again.toString()).isZero();
    assertThat(again.err()).contains("deleted 0 entries");
  }

  @Test
  void aNamedStageThatIsNotThereIsAFindingForRmAndClearAlike() throws IOException {
    Path cache = dir.resolve("cache");
    Caches.fill(Caches.at(cache));
    assertThat(Run.of("stages", "rm", cache.toString(), "no-such-stage").code()).isEqualTo(Main.FINDINGS);
    assertThat(Run.of("stages", "clear", cache.toString(), "no-such-stage").code()).isEqualTo(Main.FINDINGS);
    assertThat(Run.of("rm", cache.toString(), "no-such-function").code()).isEqualTo(Main.FINDINGS);
  }
}
