package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Memory commands on a local cache written by real memoized calls. */
class LocalCacheCommandsTest {
  @TempDir Path dir;
  Path cache;
  String at;

  @BeforeEach
  void fill() {
    cache = dir.resolve("cache");
    Caches.fill(Caches.at(cache));
    at = cache.toString();
  }

  @Test
  void lsListsEachFunctionWithItsEntriesSizeAndLastAccess() {
    Run r = Run.of("ls", at);
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("FUNCTION", "ENTRIES", "LAST ACCESS").contains("Fns.square", "Fns.greet", "Fns.signal");
    assertThat(line(r.out(), "Fns.square")).matches(".*\\s4\\s+\\S+B?\\s+\\d{4}-\\d\\d-\\d\\d .*");
  }

  @Test
  void lsJsonParsesWithTheFunctionsAndWithEntriesTheEntries() {
    JsonNode doc = Run.of("ls", at, "--json", "--entries").json();
    assertThat(doc.get("schema").asInt()).isEqualTo(1);
    assertThat(doc.get("entryCount").asInt()).isEqualTo(7);
    assertThat(doc.get("functions")).hasSize(3);
    assertThat(doc.get("entries")).hasSize(7);
    long sum = 0;
    for (JsonNode e : doc.get("entries")) {
      assertThat(e.get("key").asText()).matches("[0-9a-f]{32}");
      assertThat(e.get("lastAccess").asText()).endsWith("Z");
      sum += e.get("bytes").asLong();
    }
    assertThat(doc.get("totalBytes").asLong()).isEqualTo(sum).isPositive();
    JsonNode one = Run.of("ls", at, "Fns.square", "--json").json();
    assertThat(one.get("entries")).hasSize(4);
  }

  @Test
  void duTotalsWhatLsListsAndSortsTheLargestFunctionFirst() {
    JsonNode ls = Run.of("ls", at, "--json").json();
    Run du = Run.of("du", at, "--bytes");
    assertThat(du.code()).isZero();
    List<String> lines = du.out().lines().toList();
    assertThat(lines.get(0)).contains("Fns.signal"); // 1000 doubles: the largest
    assertThat(lines.get(lines.size() - 1)).isEqualTo(ls.get("totalBytes").asLong() + "\t7\ttotal");
    assertThat(Run.of("du", at, "-s", "--json").json().get("totalBytes").asLong()).isEqualTo(ls.get("totalBytes").asLong());
  }

  @Test
  void showPrintsEveryEntryOfAFunctionWithItsArguments() {
    Run r = Run.of("show", at, "Fns.greet");
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Fns.greet", "code version", "computed in", "path");
    JsonNode doc = Run.of("show", at, "Fns.greet", "--json").json();
    assertThat(doc.get("entries")).hasSize(2);
    assertThat(doc.get("entries").get(0).get("arguments").toString()).contains("name").containsAnyOf("ada", "bob");
  }

  @Test
  void explainNamesTheArgumentsThatVaryBetweenAFunctionsEntries() {
    Run r = Run.of("explain", at, "Fns.greet");
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("2 entries").contains("argument name: 2 distinct values")
        .contains("argument times: the same in every entry");
    String key = Run.of("ls", at, "Fns.greet", "--json").json().get("entries").get(0).get("key").asText();
    Run one = Run.of("explain", at, "Fns.greet", key.substring(0, 10));
    assertThat(one.out()).as(one.toString()).contains("closest of the other 1 entry").contains("argument name:");
    JsonNode doc = Run.of("explain", at, "Fns.greet", key, "--json").json();
    assertThat(doc.get("closest").get(0).get("differences").get(0).get("part").asText()).isEqualTo("argument name");
  }

  @Test
  void rmDeletesOneEntryByKeyOrAWholeFunction() {
    String key = Run.of("ls", at, "Fns.square", "--json").json().get("entries").get(0).get("key").asText();
    assertThat(Run.of("rm", at, key.substring(0, 8)).code()).isZero();
    assertThat(Run.of("ls", at, "Fns.square", "--json").json().get("entries")).hasSize(3);
    Run dry = Run.of("rm", at, "Fns.square", "--dry-run");
    assertThat(dry.err()).contains("would delete 3 entries");
    assertThat(Run.of("rm", at, "Fns.square").code()).isZero();
    assertThat(Run.of("ls", at, "--json").json().get("entryCount").asInt()).isEqualTo(3);
    Run none = Run.of("rm", at, "Fns.square");
    assertThat(none.code()).as(none.toString()).isEqualTo(Main.FINDINGS);
    assertThat(none.err()).contains("no function and no entry key Fns.square");
  }

  @Test
  void pruneDryRunDeletesNothingAndPruneKeepsTheItemLimit() {
    Run dry = Run.of("prune", at, "--max-items", "2", "--dry-run", "--json");
    assertThat(dry.code()).as(dry.toString()).isZero();
    assertThat(dry.json().get("removed")).hasSize(5);
    assertThat(Run.of("ls", at, "--json").json().get("entryCount").asInt()).isEqualTo(7);
    Run real = Run.of("prune", at, "--max-items", "2");
    assertThat(real.err()).as(real.toString()).contains("deleted 5 entries").contains("2 entries");
    assertThat(Run.of("ls", at, "--json").json().get("entryCount").asInt()).isEqualTo(2);
    assertThat(Run.of("prune", at, "--max-size", "1", "--max-age", "30d").code()).isZero();
    assertThat(Run.of("ls", at, "--json").json().get("entryCount").asInt()).isZero();
  }

  @Test
  void verifyFindsTheDamagedEntryAndTheAbandonedTemporaryAndRepairDeletesThem() {
    Path damaged = Caches.damageOneEntry(cache, "Fns.square");
    Path tmp = Caches.abandonTemporary(cache);
    Run r = Run.of("verify", at);
    assertThat(r.code()).as(r.toString()).isEqualTo(Main.FINDINGS);
    assertThat(r.out()).contains("damaged entry").contains(damaged.getFileName().toString()).contains("CRC32C")
        .contains("abandoned temporary").contains(tmp.getFileName().toString());
    assertThat(r.err()).contains("7 entries checked: 2 problems found");
    assertThat(tmp).as("verify without --repair sweeps nothing").exists();
    JsonNode json = Run.of("verify", at, "--json").json();
    assertThat(json.get("ok").asBoolean()).isFalse();
    List<String> kinds = new ArrayList<>();
    json.get("problems").forEach(p -> kinds.add(p.get("kind").asText()));
    assertThat(kinds).containsExactlyInAnyOrder("DAMAGED_ENTRY", "ABANDONED_TEMPORARY");

    Run repair = Run.of("verify", at, "--repair");
    assertThat(repair.code()).isEqualTo(Main.FINDINGS);
    assertThat(repair.err()).contains("found and deleted");
    assertThat(damaged).doesNotExist();
    assertThat(tmp).doesNotExist();
    Run again = Run.of("verify", at);
    assertThat(again.code()).as(again.toString()).isZero();
    assertThat(again.err()).contains("6 entries checked: no problem found");
  }

  @Test
  void aMissingLocationIsExitCode3AndCreatesNothing() {
    Path missing = dir.resolve("typo");
    for (String cmd : List.of("ls", "du", "verify")) {
      Run r = Run.of(cmd, missing.toString());
      assertThat(r.code()).as(r.toString()).isEqualTo(Main.UNREACHABLE);
      assertThat(r.err()).startsWith("joblib4j: no cache at ").contains("does not exist");
      assertThat(r.out()).isEmpty();
    }
    assertThat(missing).doesNotExist();
  }

  @Test
  void usageErrorsAreExitCode2WithAMessageSayingWhatWasWrong() {
    assertThat(Run.of("frobnicate", at).code()).isEqualTo(Main.USAGE);
    assertThat(Run.of("ls").err()).contains("Missing required parameter: 'LOCATION'");
    Run size = Run.of("prune", at, "--max-size", "lots");
    assertThat(size.code()).isEqualTo(Main.USAGE);
    assertThat(size.err()).contains("--max-size lots: not a size");
    assertThat(Run.of("prune", at, "--max-age", "soon").err()).contains("--max-age soon: not an age");
    assertThat(Run.of("prune", at).err()).contains("prune needs a limit");
    assertThat(Run.of("ls", at, "--conf", "novalue").err()).contains("expected key=value");
    assertThat(Run.of("ls", "nosuchscheme://x/y").code()).isEqualTo(Main.USAGE);
    assertThat(Run.withEnv(Map.of("HADOOP_CONF_DIR", dir.resolve("none").toString()), "ls", "hdfs://127.0.0.1:1/c")
        .err()).contains("HADOOP_CONF_DIR=").contains("is not a folder");
    assertThat(Run.of("ls", at, "--json").code()).isZero();
    assertThat(Files.exists(cache)).isTrue();
  }

  @Test
  void aFunctionWithoutEntriesIsAFinding() {
    Run r = Run.of("show", at, "Nope.nothing");
    assertThat(r.code()).isEqualTo(Main.FINDINGS);
    assertThat(r.err()).contains("no entries of Nope.nothing").contains("joblib4j ls");
  }

  @Test
  void helpAndVersionExitZero() {
    Run help = Run.of("--help");
    assertThat(help.code()).isZero();
    assertThat(help.out()).contains("ls", "du", "show", "explain", "rm", "prune", "verify", "stages", "Exit codes");
    assertThat(Run.of("--version").out()).startsWith("joblib4j ");
  }

  @Test
  void lookingCommandsWorkOnAFolderThatCannotBeWrittenAndChangeNothing() throws Exception {
    Caches.abandonTemporary(cache);
    Files.delete(cache.resolve(".gitignore")); // what a writing Memory writes back when it opens a cache
    String key = Run.of("ls", at, "Fns.greet", "--json").json().get("entries").get(0).get("key").asText();
    Caches.setWritable(cache, false);
    try {
      Map<String, String> before = Caches.snapshot(cache);
      List<List<String>> looks = List.of(List.of("ls", at), List.of("ls", at, "--entries", "--json"), List.of("du", at),
          List.of("du", at, "-s", "--json"), List.of("show", at, "Fns.greet"), List.of("show", at, key),
          List.of("explain", at, "Fns.greet"), List.of("explain", at, "Fns.greet", key),
          List.of("prune", at, "--max-items", "1", "--dry-run"), List.of("rm", at, "Fns.square", "--dry-run"));
      for (List<String> look : looks) {
        Run r = Run.of(look.toArray(String[]::new));
        assertThat(r.code()).as(look + "\n" + r).isZero();
      }
      Run verify = Run.of("verify", at);
      assertThat(verify.code()).as(verify.toString()).isEqualTo(Main.FINDINGS);
      assertThat(verify.out()).contains("abandoned temporary");
      assertThat(verify.err()).contains("7 entries checked: 1 problem found");
      assertThat(Caches.snapshot(cache)).as("no file or folder added, removed or changed").isEqualTo(before);
    } finally {
      Caches.setWritable(cache, true);
    }
  }

  private static String line(String text, String containing) {
    return text.lines().filter(l -> l.contains(containing)).findFirst().orElseThrow(() -> new AssertionError(text));
  }
}
