package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line on a MiniDFSCluster cache written by real memoized calls (one cluster for every
 * HDFS test of the module), in this JVM and as the executable jar in a child JVM ({@code java
 * -jar}), which must work with nothing but the jar.
 */
class CommandLineIT {
  static MiniDFSCluster cluster;
  static String at;
  static Configuration conf;
  static Path damagedEntry;
  @TempDir Path dir;

  @BeforeAll
  static void writeACacheOnHdfs() throws IOException {
    cluster = MiniDfs.shared();
    conf = MiniDfs.clientConf(cluster);
    URI uri = MiniDfs.uri(cluster, "/cli-cache");
    at = uri.toString();
    try (Store store = HadoopStores.open(uri, conf, Map.of())) {
      Caches.fill(Caches.at(store));
    }
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      // one damaged entry: an output of the same size with one byte changed
      org.apache.hadoop.fs.Path out = null;
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path(uri), true);
      while (it.hasNext()) {
        org.apache.hadoop.fs.Path p = it.next().getPath();
        if (p.getName().equals("output.jl4j") && p.getParent().getParent().getName().contains("Fns.square-")) {
          out = p;
          break;
        }
      }
      assertThat(out).isNotNull();
      byte[] b;
      try (InputStream in = fs.open(out)) {
        b = in.readAllBytes();
      }
      b[b.length / 2] ^= 0x5a;
      try (OutputStream o = fs.create(out, true)) {
        o.write(b);
      }
      damagedEntry = Path.of(out.getParent().getName());
      // one abandoned temporary, as a writer that died two hours ago leaves it
      org.apache.hadoop.fs.Path tmp = new org.apache.hadoop.fs.Path(uri + "/.jl4j-tmp/Fns.square-dead-writer");
      try (OutputStream o = fs.create(new org.apache.hadoop.fs.Path(tmp, "output.jl4j"))) {
        o.write(new byte[100]);
      }
      long old = System.currentTimeMillis() - 2 * 3600_000L;
      fs.setTimes(new org.apache.hadoop.fs.Path(tmp, "output.jl4j"), old, old);
      fs.setTimes(tmp, old, old);
    }
  }

  @AfterAll
  static void noLeftovers() {
    // the shared cluster stops with the JVM
  }

  @Test
  void lsDuAndShowOnHdfsInThisJvm() {
    Run ls = Run.of("ls", at);
    assertThat(ls.code()).as(ls.toString()).isZero();
    assertThat(ls.out()).contains("Fns.square", "Fns.greet", "Fns.signal");
    JsonNode du = Run.of("du", at, "--json").json();
    assertThat(du.get("entryCount").asInt()).isEqualTo(7);
    assertThat(du.get("functions")).hasSize(3);
    assertThat(Run.of("show", at, "Fns.greet", "--json").json().get("entries")).hasSize(2);
    assertThat(Run.of("ls", at + "-typo").code()).isEqualTo(Main.UNREACHABLE);
  }

  @Test
  void verifyOnHdfsFindsTheDamagedEntry() {
    Run r = Run.of("verify", at, "--json");
    assertThat(r.code()).as(r.toString()).isEqualTo(Main.FINDINGS);
    List<String> found = new ArrayList<>();
    r.json().get("problems").forEach(p -> found.add(p.get("kind").asText() + " " + p.get("path").asText()));
    assertThat(found).anyMatch(p -> p.startsWith("DAMAGED_ENTRY ") && p.endsWith("/" + damagedEntry));
  }

  @Test
  void theExecutableJarRunsStandaloneOnHdfsAndOnALocalCache() throws Exception {
    Path jar = Path.of(System.getProperty("joblib4j.it.cliJar"));
    try (JarFile j = new JarFile(jar.toFile())) {
      assertThat(j.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("io.joblib4j.cli.Main");
    }
    Child ls = child(jar, "ls", at, "--json");
    assertThat(ls.code()).as(ls.toString()).isZero();
    JsonNode doc = new ObjectMapper().readTree(ls.out());
    assertThat(doc.get("entryCount").asInt()).isEqualTo(7);
    assertThat(ls.err()).as("no log chatter on stderr").isEmpty();

    Child du = child(jar, "du", at);
    assertThat(du.out()).contains("7\ttotal");

    Path local = dir.resolve("local");
    Caches.fill(Caches.at(local));
    Caches.damageOneEntry(local, "Fns.greet");
    Child verify = child(jar, "verify", local.toString());
    assertThat(verify.code()).as(verify.toString()).isEqualTo(Main.FINDINGS);
    assertThat(verify.out()).contains("damaged entry");

    Child unreachable = child(jar, "ls", "hdfs://127.0.0.1:1/cache");
    assertThat(unreachable.code()).as(unreachable.toString()).isEqualTo(Main.UNREACHABLE);
    assertThat(unreachable.err()).contains("joblib4j: cannot reach hdfs://127.0.0.1:1/cache");
    assertThat(child(jar, "ls").code()).isEqualTo(Main.USAGE);
  }

  @Test
  void theSparkJarHasTheEntryPointAndNoHadoopOrSpark() throws IOException {
    Path jar = Path.of(System.getProperty("joblib4j.it.sparkJar"));
    try (JarFile j = new JarFile(jar.toFile())) {
      assertThat(j.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("io.joblib4j.cli.Main");
      List<String> names = j.stream().map(e -> e.getName()).toList();
      assertThat(names).contains("io/joblib4j/cli/Main.class", "picocli/CommandLine.class",
          "io/joblib4j/spark/StageCatalog.class", "io/joblib4j/hdfs/HadoopStores.class");
      assertThat(names).noneMatch(n -> n.startsWith("org/apache/hadoop/") || n.startsWith("org/apache/spark/")
          || n.startsWith("com/fasterxml/") || n.startsWith("org/slf4j/"));
    }
  }

  record Child(int code, String out, String err) {}

  private Child child(Path jar, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-jar", jar.toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("HADOOP_CONF_DIR");
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("java -jar " + String.join(" ", args) + " ended").isTrue();
    return new Child(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

}
