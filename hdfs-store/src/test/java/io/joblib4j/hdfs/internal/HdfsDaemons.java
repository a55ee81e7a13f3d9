package io.joblib4j.hdfs.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * A NameNode and DataNodes run as separate JVM processes, as on a cluster (a MiniDFSCluster runs
 * them inside the test's JVM, where they cannot be frozen or killed on their own). Each daemon is
 * started with {@code java -cp <Hadoop's jars> <main class> -Dkey=value ...}; every process is
 * killed by {@link #close}, and by a shutdown hook if the test JVM exits first.
 */
final class HdfsDaemons implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final Path dir;
  private final int nameNodePort;
  private final List<Process> processes = new CopyOnWriteArrayList<>();
  private final Thread killer = new Thread(this::killAll, "hdfs-daemons-killer");
  private Process format;
  private Process nameNode;

  private HdfsDaemons(Path dir, int nameNodePort) {
    this.dir = dir;
    this.nameNodePort = nameNodePort;
    Runtime.getRuntime().addShutdownHook(killer);
  }

  /** Formats and starts a NameNode and {@code dataNodes} DataNodes, and waits until they are in service. */
  static HdfsDaemons start(int dataNodes) throws Exception {
    Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "hdfs-daemons-");
    HdfsDaemons d = new HdfsDaemons(dir, freePort());
    try {
      d.format = d.launch("format", "org.apache.hadoop.hdfs.server.namenode.NameNode", d.nameNodeSettings(),
          "-format", "-force", "-nonInteractive");
      if (!d.format.waitFor(START_TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS) || d.format.exitValue() != 0) {
        throw new IllegalStateException("formatting the NameNode failed:\n" + d.log("format"));
      }
      d.nameNode = d.launch("namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode", d.nameNodeSettings());
      for (int i = 0; i < dataNodes; i++) {
        d.launch("datanode-" + i, "org.apache.hadoop.hdfs.server.datanode.DataNode", Map.of(
            "fs.defaultFS", d.uri("/").toString(),
            "dfs.datanode.data.dir", dir.resolve("data-" + i).toUri().toString(),
            "dfs.datanode.address", "127.0.0.1:0",
            "dfs.datanode.ipc.address", "127.0.0.1:0",
            "dfs.datanode.http.address", "127.0.0.1:0",
            "dfs.datanode.hostname", "127.0.0.1",
            "hadoop.tmp.dir", dir.resolve("tmp-" + i).toString(),
            "dfs.heartbeat.interval", "1"));
      }
      d.awaitInService(dataNodes);
      return d;
    } catch (Exception | Error e) {
      d.close();
      throw e;
    }
  }

  private Map<String, String> nameNodeSettings() {
    return Map.of(
        "fs.defaultFS", uri("/").toString(),
        "dfs.namenode.rpc-address", "127.0.0.1:" + nameNodePort,
        "dfs.namenode.http-address", "127.0.0.1:0",
        "dfs.namenode.name.dir", dir.resolve("name").toUri().toString(),
        "dfs.replication", "2",
        "dfs.namenode.safemode.extension", "0",
        "hadoop.tmp.dir", dir.resolve("tmp-nn").toString(),
        "dfs.heartbeat.interval", "1");
  }

  /** {@code hdfs://127.0.0.1:<port><path>}. */
  URI uri(String path) {
    return URI.create("hdfs://127.0.0.1:" + nameNodePort + path);
  }

  /** Stops the NameNode's process (SIGSTOP): it still accepts connections, and answers nothing. */
  void freezeNameNode() throws Exception {
    signal("STOP");
  }

  /** Lets a frozen NameNode go on (SIGCONT). */
  void thawNameNode() throws Exception {
    signal("CONT");
  }

  /** Kills the NameNode's process (SIGKILL), as the OOM killer or a lost machine would. */
  void killNameNode() throws InterruptedException {
    nameNode.destroyForcibly().waitFor();
  }

  private void signal(String name) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(nameNode.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -" + name + " " + nameNode.pid() + " failed");
    }
  }

  private Process launch(String name, String mainClass, Map<String, String> settings, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    Path argFile = dir.resolve(name + ".args"); // the class path is too long for one command-line argument
    Files.writeString(argFile, "-cp \"" + classpath().replace("\\", "\\\\") + "\"\n", StandardCharsets.UTF_8);
    command.add("@" + argFile);
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    String flags = System.getProperty("joblib4j.it.daemonJvmFlags", "");
    if (!flags.isBlank()) {
      command.addAll(Arrays.asList(flags.trim().split("\\s+")));
    }
    command.add(mainClass);
    settings.forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile())
        .start();
    processes.add(p);
    return p;
  }

  private static String classpath() {
    String cp = System.getProperty("joblib4j.it.daemonClasspath");
    if (cp == null || cp.isBlank()) {
      throw new IllegalStateException("joblib4j.it.daemonClasspath is not set: run this test through Maven (failsafe)");
    }
    return cp;
  }

  private void awaitInService(int dataNodes) throws Exception {
    Configuration conf = new Configuration();
    conf.setInt("ipc.client.connect.max.retries", 0);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(uri("/"), conf)) {
      while (true) {
        for (Process p : processes) {
          if (p != format && !p.isAlive()) {
            throw new IllegalStateException("an HDFS daemon exited:\n" + logs());
          }
        }
        try {
          if (!fs.isInSafeMode() && fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length == dataNodes) {
            return;
          }
        } catch (IOException e) {
          // not listening yet
        }
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException("the HDFS daemons did not start within " + START_TIMEOUT + ":\n" + logs());
        }
        Thread.sleep(200); // polling another process: there is nothing to wait on
      }
    }
  }

  /** The last lines each daemon wrote, for a failure message. */
  String logs() {
    StringBuilder out = new StringBuilder();
    try (var files = Files.list(dir)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
        out.append("---- ").append(f.getFileName()).append('\n').append(tail(f));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private String log(String name) {
    return tail(dir.resolve(name + ".log"));
  }

  private static String tail(Path f) {
    try {
      List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())) + "\n";
    } catch (IOException e) {
      return "(unreadable: " + e + ")\n";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void killAll() {
    for (Process p : processes) {
      p.destroyForcibly(); // SIGKILL ends a stopped process too
    }
    for (Process p : processes) {
      try {
        p.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    killAll();
    try {
      Runtime.getRuntime().removeShutdownHook(killer);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook is running
    }
  }
}
