package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.hdfs.s3.S3Server;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The command line on {@code s3a://} (hadoop-aws against S3Proxy, a real S3 API server in a JVM of
 * its own), on caches a Memory filled there: every command as a user runs it, with the S3A settings
 * given as {@code --conf}. On an object store an entry is a manifest ({@code .jl4j-commit}) holding
 * small files inline, so "damaged" here means a manifest whose inline bytes no longer match the
 * CRC32C written beside them. Objects that are not joblib4j's survive {@code rm}, {@code prune} and
 * {@code verify --repair}.
 */
class S3CommandLineIT {
  static S3Server s3;
  static Configuration conf;

  @BeforeAll
  static void server() {
    s3 = S3Server.shared();
    conf = s3.conf(true);
  }

  /** The S3A settings as the user gives them: {@code --conf key=value} after the command's arguments. */
  private static Run run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    for (String key : new String[] {"fs.s3a.endpoint", "fs.s3a.endpoint.region", "fs.s3a.path.style.access",
        "fs.s3a.connection.ssl.enabled", "fs.s3a.aws.credentials.provider", "fs.s3a.access.key", "fs.s3a.secret.key"}) {
      all.add("--conf");
      all.add(key + "=" + conf.get(key));
    }
    return Run.of(all.toArray(String[]::new));
  }

  /** {@link Caches#fill}'s 7 entries in 3 functions at a new {@code s3a://} location. */
  private static URI filled(String name) throws IOException {
    URI uri = s3.newLocation(name);
    try (Store store = HadoopStores.open(uri, conf, Map.of())) {
      Caches.fill(Caches.at(store));
    }
    return uri;
  }

  private static void write(URI uri, String path, String content) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(uri, conf);
        OutputStream o = fs.create(new Path(uri + "/" + path), true)) {
      o.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Every object under {@code uri}: its key (below {@code uri}) and its size. */
  private static Map<String, Long> objects(URI uri) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(uri), true);
      while (it.hasNext()) {
        LocatedFileStatus st = it.next();
        out.put(st.getPath().toUri().getPath().substring(uri.getPath().length() + 1), st.getLen());
      }
    }
    return out;
  }

  /**
   * Flips one byte of the output held in the manifest of one entry of {@code function}, leaving its
   * recorded size and CRC32C as they were; returns the entry's key.
   */
  private static String damageOneEntry(URI uri, String function) throws IOException {
    ObjectMapper json = new ObjectMapper();
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      for (String key : objects(uri).keySet()) {
        if (!key.contains(function + "-") || !key.endsWith("/.jl4j-commit")) {
          continue;
        }
        Path commit = new Path(uri + "/" + key);
        JsonNode manifest;
        try (InputStream in = fs.open(commit)) {
          manifest = json.readTree(in);
        }
        for (JsonNode f : manifest.get("files")) {
          if (f.get("name").asText().equals("output.jl4j") && f.hasNonNull("inline")) {
            byte[] b = f.get("inline").binaryValue();
            b[b.length / 2] ^= 0x5a;
            ((ObjectNode) f).put("inline", b);
            try (OutputStream o = fs.create(commit, true)) {
              o.write(json.writeValueAsBytes(manifest));
            }
            return commit.getParent().getName();
          }
        }
      }
    }
    throw new AssertionError("no entry of " + function + " with an inline output at " + uri);
  }

  @Test
  void lsDuAndShowListWhatAMemoryWroteOnS3() throws Exception {
    URI uri = filled("cli-ls");
    String at = uri.toString();
    Run ls = run("ls", at);
    assertThat(ls.code()).as(ls.toString()).isZero();
    assertThat(ls.out()).contains("Fns.square", "Fns.greet", "Fns.signal");
    JsonNode entries = run("ls", at, "--entries", "--json").json();
    assertThat(entries.get("entryCount").asInt()).isEqualTo(7);
    JsonNode du = run("du", at, "--json").json();
    assertThat(du.get("entryCount").asInt()).isEqualTo(7);
    assertThat(du.get("functions")).hasSize(3);
    assertThat(du.get("totalBytes").asLong()).as(du.toString()).isPositive();
    assertThat(run("show", at, "Fns.greet", "--json").json().get("entries")).hasSize(2);
    assertThat(run("ls", at + "-typo").code()).isEqualTo(Main.UNREACHABLE);
  }

  @Test
  void lookingCommandsWriteNothingOnS3() throws Exception {
    URI uri = filled("cli-look");
    String at = uri.toString();
    Map<String, Long> before = objects(uri);
    for (List<String> look : List.of(List.of("ls", at), List.of("ls", at, "--entries", "--json"), List.of("du", at),
        List.of("show", at, "Fns.greet"), List.of("explain", at, "Fns.greet"), List.of("verify", at),
        List.of("prune", at, "--max-items", "1", "--dry-run"), List.of("rm", at, "Fns.square", "--dry-run"))) {
      Run r = run(look.toArray(String[]::new));
      assertThat(r.code()).as(look + "\n" + r).isZero();
    }
    assertThat(objects(uri)).as("no object added, removed or resized").isEqualTo(before);
  }

  @Test
  void verifyFindsADamagedEntryOnS3AndRepairDeletesOnlyIt() throws Exception {
    URI uri = filled("cli-verify");
    String at = uri.toString();
    String damaged = damageOneEntry(uri, "Fns.square");
    Run verify = run("verify", at, "--json");
    assertThat(verify.code()).as(verify.toString()).isEqualTo(Main.FINDINGS);
    List<String> found = new ArrayList<>();
    verify.json().get("problems").forEach(p -> found.add(p.get("kind").asText() + " " + p.get("path").asText()));
    assertThat(found).as(verify.toString()).singleElement().satisfies(p -> assertThat(p)
        .startsWith("DAMAGED_ENTRY ").endsWith("/" + damaged));
    assertThat(verify.json().get("entriesChecked").asInt()).isEqualTo(7);

    Run repair = run("verify", at, "--repair");
    assertThat(repair.code()).as(repair.toString()).isEqualTo(Main.FINDINGS);
    assertThat(objects(uri).keySet()).noneMatch(k -> k.contains(damaged));
    Run again = run("verify", at);
    assertThat(again.code()).as(again.toString()).isEqualTo(Main.OK);
    assertThat(again.err()).contains("6 entries checked: no problem found");
  }

  @Test
  void rmAndPruneOnS3DeleteEntriesAndLeaveEveryObjectThatIsNotJoblib4js() throws Exception {
    URI uri = filled("cli-delete");
    String at = uri.toString();
    // a user's objects in the cache's folder: at its root, and in a folder named like a function's
    write(uri, "notes.txt", "mine\n");
    write(uri, "exports-20240101abcd/report.csv", "a,b\n");
    write(uri, "exports-20240101abcd/sub/x.csv", "x\n");
    Map<String, Long> users = new TreeMap<>(objects(uri));
    users.keySet().removeIf(k -> !k.equals("notes.txt") && !k.startsWith("exports-"));
    assertThat(users).hasSize(3);

    Run rm = run("rm", at, "Fns.square");
    assertThat(rm.code()).as(rm.toString()).isZero();
    assertThat(rm.err()).contains("deleted 4 entries");
    assertThat(run("ls", at, "--entries", "--json").json().get("entryCount").asInt()).isEqualTo(3);
    assertThat(objects(uri)).containsAllEntriesOf(users);

    Run prune = run("prune", at, "--max-age", "0s");
    assertThat(prune.code()).as(prune.toString()).isZero();
    assertThat(prune.err()).contains("deleted 3 entries");
    assertThat(run("ls", at, "--entries", "--json").json().get("entryCount").asInt()).isZero();
    assertThat(objects(uri)).containsAllEntriesOf(users);
    assertThat(objects(uri).keySet()).noneMatch(k -> k.endsWith(".jl4j-commit"));
  }

  @Test
  void commandsThatDeleteChangeNothingWhereS3HoldsNoCache() throws Exception {
    URI uri = s3.newLocation("cli-none");
    write(uri, "exports-20240101abcd/report.csv", "a,b\n");
    write(uri, "stages/old-run/result.csv", "data\n");
    Map<String, Long> before = objects(uri);
    String at = uri.toString();
    for (String[] command : new String[][] {{"prune", at, "--max-age", "0s"}, {"rm", at, "exports"},
        {"verify", at, "--repair"}, {"stages", "clear", at}}) {
      Run r = run(command);
      assertThat(r.code()).as(List.of(command) + "\n" + r).isEqualTo(Main.NO_CACHE);
    }
    assertThat(objects(uri)).as("nothing written, nothing deleted").isEqualTo(before);
  }
}
