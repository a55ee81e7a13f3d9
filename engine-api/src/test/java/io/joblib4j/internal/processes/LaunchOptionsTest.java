package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchOptionsTest {

  @Test
  void inheritsModuleFlagsPropertiesAndAssertionsButNotHeapGcAgentsOrDebuggers() {
    List<String> in = List.of("-Xmx2g", "-XX:+UseParallelGC", "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-Dlog.level=debug", "-Djava.class.path=x",
        "-Djava.util.concurrent.ForkJoinPool.common.parallelism=8", "-ea", "-javaagent:jacoco.jar",
        "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "--enable-preview");
    assertThat(InheritedJvmOptions.select(in)).containsExactly("--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-Dlog.level=debug", "-ea", "--enable-preview");
  }

  @Test
  void prefetchedOptionsAreThisJvmsInheritableOnesAndComputedOnce() throws InterruptedException {
    InheritedJvmOptions.prefetch();
    List<String> first = InheritedJvmOptions.get(); // waits for the prefetch if it is still computing
    assertThat(first).isEqualTo(InheritedJvmOptions.select(
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
    InheritedJvmOptions.prefetch();
    assertThat(InheritedJvmOptions.get()).isSameAs(first);
  }

  @Test
  void parsesOptionsInTheFormsUsersWrite() {
    ProcessesOptions o = ProcessesOptions.parse(Map.of("heap", "512m", "jvmOptions", "-Da=1  -Db=2",
        "idleTimeout", 1.5, "startTimeout", "PT10S", "reuse", "false", "inheritJvmOptions", false));
    assertThat(o.heap()).isEqualTo("512m");
    assertThat(o.jvmOptions()).containsExactly("-Da=1", "-Db=2");
    assertThat(o.idleTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(o.startTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(o.reuse()).isFalse();
    assertThat(o.inheritJvmOptions()).isFalse();
    assertThat(ProcessesOptions.parse(Map.of())).isEqualTo(ProcessesOptions.DEFAULTS);
  }

  @Test
  void rejectsBadValuesSayingWhatWasExpected() {
    assertThatThrownBy(() -> ProcessesOptions.parse(Map.of("idleTimeout", "soon")))
        .hasMessageContaining("idleTimeout").hasMessageContaining("\"PT5M\"");
    assertThatThrownBy(() -> ProcessesOptions.parse(Map.of("idleTimeout", 0))).hasMessageContaining("positive");
    assertThatThrownBy(() -> ProcessesOptions.parse(Map.of("reuse", "maybe"))).hasMessageContaining("true or false");
    assertThatThrownBy(() -> ProcessesOptions.parse(Map.of("env", "A=1"))).hasMessageContaining("Map");
  }

  @Test
  void putsTheBudgetAndDepthFirstSoThatUserOptionsWin(@TempDir Path dir) throws Exception {
    LaunchSpec spec = new LaunchSpec("java", List.of("a.jar", "b"), List.of("-XX:+ExitOnOutOfMemoryError", "-Dx=1"), Map.of());
    List<String> cmd = spec.command(3, List.of("tcp", "127.0.0.1", "4711"), () -> dir, List.of("-Xlog:cds=off"));
    assertThat(cmd).containsExactly("java", "-D" + LaunchSpec.FJP_PARALLELISM + "=3",
        "-D" + LaunchSpec.DEPTH_PROPERTY + "=1", "-Xlog:cds=off", "-XX:+ExitOnOutOfMemoryError", "-Dx=1", "-cp",
        "a.jar" + java.io.File.pathSeparator + "b", WorkerMain.class.getName(), "tcp", "127.0.0.1", "4711");
  }

  @Test
  void longCommandLinesGoThroughAQuotedArgumentFile(@TempDir Path dir) throws Exception {
    List<String> classpath = Collections.nCopies(2000, "/some where/with \"quotes\"/lib.jar");
    LaunchSpec spec = new LaunchSpec("java", classpath, List.of(), Map.of());
    List<String> cmd = spec.command(1, List.of("unix", "/run/w.sock"), () -> dir, List.of());
    assertThat(cmd).hasSize(2);
    assertThat(cmd.get(1)).startsWith("@");
    String file = Files.readString(Path.of(cmd.get(1).substring(1)));
    assertThat(file).contains("\"/some where/with \\\"quotes\\\"/lib.jar").contains("\"" + WorkerMain.class.getName() + "\"");
  }

  @Test
  void onlyUrlClassLoadersOverLocalFilesCanBeReproduced(@TempDir Path dir) throws Exception {
    try (var files = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()});
         var remote = new java.net.URLClassLoader(new java.net.URL[] {new java.net.URL("http://example.invalid/x.jar")})) {
      assertThat(WorkerClasspath.localFiles(files)).containsExactly(dir.toString());
      assertThat(WorkerClasspath.localFiles(remote)).isNull();
      assertThat(WorkerClasspath.localFiles(new ClassLoader() {})).isNull();
      WorkerClasspath cp = WorkerClasspath.of(files);
      assertThat(cp.entries()).contains(dir.toString());
      assertThat(WorkerClasspath.of(remote).entries()).doesNotContain("http://example.invalid/x.jar");
    }
  }
}
