package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.joblib4j.hdfs.MiniDfs;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
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
    damagedEntry = Path.of(HdfsCaches.write(uri, conf));
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
    assertThat(found).anyMatch(p -> p.startsWith("DAMAGED_ENTRY ") && p.endsWith("/" + damagedEntry))
        .anyMatch(p -> p.startsWith("ABANDONED_TEMPORARY ") && p.endsWith(HdfsCaches.DEAD_WRITER));
    assertThat(r.json().get("entriesChecked").asInt()).isEqualTo(7);
  }

  @Test
  void verifyRepairOnHdfsDeletesTheDamagedEntryAndTheTemporaryAndAVerifyAfterIsClean() throws Exception {
    URI uri = MiniDfs.uri(cluster, "/cli-repair");
    String damaged = HdfsCaches.write(uri, conf);
    Run repair = Run.of("verify", uri.toString(), "--repair");
    assertThat(repair.code()).as(repair.toString()).isEqualTo(Main.FINDINGS);
    assertThat(repair.out()).contains("damaged entry").contains(damaged).contains("abandoned temporary");
    assertThat(repair.err()).contains("7 entries checked: 2 problems found and deleted");
    assertThat(HdfsCaches.snapshot(uri, conf).keySet()).noneMatch(p -> p.contains(damaged) || p.contains("dead-writer"));
    Run again = Run.of("verify", uri.toString());
    assertThat(again.code()).as(again.toString()).isEqualTo(Main.OK);
    assertThat(again.err()).contains("6 entries checked: no problem found");
  }

  @Test
  void lookingCommandsWorkOnAnHdfsCacheThisUserMayOnlyReadAndChangeNothing() throws Exception {
    URI uri = MiniDfs.uri(cluster, "/cli-readonly");
    String key = HdfsCaches.write(uri, conf);
    try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
      fs.delete(new org.apache.hadoop.fs.Path(uri + "/.gitignore"), false); // a writing Memory writes it back
    }
    Map<String, String> before = HdfsCaches.snapshot(uri, conf);
    String where = uri.toString();
    List<List<String>> looks = List.of(List.of("ls", where), List.of("ls", where, "--entries", "--json"),
        List.of("du", where), List.of("show", where, "Fns.greet"), List.of("show", where, key),
        List.of("explain", where, "Fns.greet"), List.of("prune", where, "--max-items", "1", "--dry-run"),
        List.of("rm", where, "Fns.square", "--dry-run"));
    // folders are 755, files 644, owned by the user who wrote them: another user may read, not write
    UserGroupInformation reader = UserGroupInformation.createRemoteUser("reader");
    for (List<String> look : looks) {
      Run r = reader.doAs((PrivilegedExceptionAction<Run>) () -> Run.of(look.toArray(String[]::new)));
      assertThat(r.code()).as(look + "\n" + r).isZero();
    }
    Run verify = reader.doAs((PrivilegedExceptionAction<Run>) () -> Run.of("verify", where, "--json"));
    assertThat(verify.code()).as(verify.toString()).isEqualTo(Main.FINDINGS);
    assertThat(verify.json().get("problems")).hasSize(2);
    Run repair = reader.doAs((PrivilegedExceptionAction<Run>) () -> Run.of("verify", where, "--repair"));
    assertThat(repair.code()).as("--repair needs to write: " + repair).isEqualTo(Main.UNREACHABLE);
    assertThat(repair.err()).contains("Permission denied");
    assertThat(HdfsCaches.snapshot(uri, conf)).as("no file or folder added, removed or changed").isEqualTo(before);
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
  void aLocalCacheIsListedWithoutLoadingHadoop() throws Exception {
    Path local = dir.resolve("no-hadoop");
    Caches.fill(Caches.at(local));
    Path classes = dir.resolve("classes.log");
    Child ls = run(List.of(java(), "-Xlog:class+load=info:file=" + classes, "-jar",
        System.getProperty("joblib4j.it.cliJar"), "ls", local.toString(), "--conf", "fs.x=y"), Map.of());
    assertThat(ls.code()).as(ls.toString()).isZero();
    // a Hadoop Configuration parses its XML defaults (with Hadoop's shaded parser): some 150 classes;
    // the type itself is named by the lambda that would make one, and only loaded
    String loaded = Files.readString(classes);
    assertThat(loaded).contains("io.joblib4j.cli.Main").doesNotContain("org.apache.hadoop.shaded.")
        .doesNotContain("org.apache.hadoop.fs.");
    assertThat(loaded.lines().filter(l -> l.contains(" org.apache.hadoop.")).count()).isLessThan(5);
  }

  @Test
  void theSparkJarHasTheEntryPointAndNoHadoopOrSpark() throws IOException {
    Path jar = Path.of(System.getProperty("joblib4j.it.sparkJar"));
    try (JarFile j = new JarFile(jar.toFile())) {
      assertThat(j.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("io.joblib4j.cli.Main");
      List<String> names = j.stream().map(e -> e.getName()).toList();
      assertThat(names).contains("io/joblib4j/cli/Main.class", "picocli/CommandLine.class",
          "io/joblib4j/spark/stages/StageCatalog.class", "io/joblib4j/hdfs/HadoopStores.class");
      assertThat(names).noneMatch(n -> n.startsWith("org/apache/hadoop/") || n.startsWith("org/apache/spark/")
          || n.startsWith("com/fasterxml/") || n.startsWith("org/slf4j/"));
    }
  }

  @Test
  void bothJarsCarryTheLicenseOfEveryLibraryTheirNoticeNames() throws IOException {
    for (String property : List.of("joblib4j.it.cliJar", "joblib4j.it.sparkJar")) {
      try (JarFile j = new JarFile(Path.of(System.getProperty(property)).toFile())) {
        String notice = entryText(j, "META-INF/NOTICE");
        assertThat(entryText(j, "META-INF/LICENSE")).as(property).contains("Apache License");
        java.util.regex.Matcher named = java.util.regex.Pattern.compile("META-INF/licenses/[a-z0-9-]+\\.txt").matcher(notice);
        List<String> licenses = new ArrayList<>();
        while (named.find()) {
          licenses.add(named.group());
        }
        assertThat(licenses).as(property + ": the non-Apache licenses the NOTICE names").contains(
            "META-INF/licenses/progressbar.txt", "META-INF/licenses/jline.txt", "META-INF/licenses/slf4j.txt",
            "META-INF/licenses/zstd-jni.txt", "META-INF/licenses/xz.txt", "META-INF/licenses/asm.txt",
            "META-INF/licenses/kryo.txt", "META-INF/licenses/minlog.txt", "META-INF/licenses/reflectasm.txt");
        for (String file : licenses) {
          assertThat(entryText(j, file)).as(property + ": " + file).contains("Copyright");
        }
        assertThat(notice).as("Objenesis' own NOTICE (Apache-2.0, section 4(d))")
            .contains("Copyright 2006-2024 Joe Walnes, Henri Tremblay, Leonardo Mesquita");
      }
    }
  }

  private static String entryText(JarFile jar, String name) throws IOException {
    java.util.jar.JarEntry entry = jar.getJarEntry(name);
    assertThat(entry).as(jar.getName() + " has " + name).isNotNull();
    try (java.io.InputStream in = jar.getInputStream(entry)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void sparkSubmitRunsTheCommandFromTheSparkJar() throws Exception {
    Path local = dir.resolve("submitted");
    Caches.fill(Caches.at(local));
    Child ls = sparkSubmit("ls", local.toString(), "--json");
    assertThat(ls.code()).as(ls.toString()).isZero();
    assertThat(new ObjectMapper().readTree(ls.out()).get("entryCount").asInt()).as(ls.toString()).isEqualTo(7);
    Child du = sparkSubmit("du", at); // through the Hadoop client on Spark's class path
    assertThat(du.code()).as(du.toString()).isZero();
    assertThat(du.out()).contains("7\ttotal");
    Child none = sparkSubmit("show", local.toString(), "Nope.nothing");
    assertThat(none.code()).as(none.toString()).isEqualTo(Main.FINDINGS);
    assertThat(none.err()).contains("no entries of Nope.nothing");
  }

  @Test
  void theProgressBarShowsOnlyWhenStandardErrorIsATerminalAndNeverInStandardOutput() throws Exception {
    Path script = Path.of("/usr/bin/script"); // util-linux: runs a command on a terminal of its own
    Assumptions.assumeTrue(Files.isExecutable(script), "needs script(1) to give the command a terminal");
    Path local = dir.resolve("bar");
    Caches.fill(Caches.at(local));
    String ls = "'" + java() + "' -jar '" + System.getProperty("joblib4j.it.cliJar") + "' ls '" + local + "'";
    Path err = dir.resolve("stderr.txt");
    Path json = dir.resolve("stdout.json");

    String both = onATerminal(script, ls);
    assertThat(both).as("stdout and stderr a terminal").contains("listing  ?").contains("Fns.square");
    String outOnly = onATerminal(script, ls + " 2>'" + err + "'");
    assertThat(outOnly).as("stdout a terminal, stderr a file").contains("Fns.square").doesNotContain("listing  ?");
    assertThat(Files.readString(err)).doesNotContain("listing");
    String errOnly = onATerminal(script, ls + " --json >'" + json + "'");
    assertThat(errOnly).as("stderr a terminal, stdout a file").contains("listing  ?");
    assertThat(new ObjectMapper().readTree(json.toFile()).get("entryCount").asInt()).isEqualTo(7);
  }

  /** What {@code command} wrote to the terminal script(1) gave it, the bar shown at once (not after a second). */
  private String onATerminal(Path script, String command) throws Exception {
    Child c = run(List.of(script.toString(), "-q", "-e", "-c", command, "/dev/null"),
        Map.of("JOBLIB4J_PROGRESS_AFTER", "0"));
    assertThat(c.code()).as(command + "\n" + c).isZero();
    return c.out();
  }

  record Child(int code, String out, String err) {}

  private Child child(Path jar, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx256m", "-jar", jar.toString()));
    cmd.addAll(List.of(args));
    return run(cmd, Map.of());
  }

  /**
   * {@code spark-submit --class io.joblib4j.cli.Main joblib4j-cli-<version>-spark.jar ARGS} on local[1]:
   * SparkSubmit's main in a child JVM whose class path is Spark's jars (from Maven, as a Spark
   * distribution has them), with a Spark home of no jars.
   */
  private Child sparkSubmit(String... args) throws Exception {
    Path home = Files.createDirectories(dir.resolve("spark-home").resolve("jars")).getParent();
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx512m"));
    cmd.addAll(List.of(System.getProperty("joblib4j.it.sparkJvmFlags").trim().split("\\s+")));
    cmd.addAll(List.of("-cp", System.getProperty("joblib4j.it.sparkClasspath"), "org.apache.spark.deploy.SparkSubmit",
        "--master", "local[1]", "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1",
        "--class", "io.joblib4j.cli.Main", System.getProperty("joblib4j.it.sparkJar")));
    cmd.addAll(List.of(args));
    return run(cmd, Map.of("SPARK_HOME", home.toString(), "SPARK_SCALA_VERSION", "2.13", "SPARK_LOCAL_IP", "127.0.0.1"));
  }

  private Child run(List<String> cmd, Map<String, String> env) throws Exception {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("HADOOP_CONF_DIR");
    pb.environment().putAll(env);
    Process p = pb.start();
    assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(String.join(" ", cmd) + " ended").isTrue();
    return new Child(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
