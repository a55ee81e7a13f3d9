package io.joblib4j.spark.connect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import io.joblib4j.spark.SparkBackend;
import org.apache.spark.sql.SparkSession;

/**
 * One Spark Connect server for every IT of the module (its start is what costs): {@code
 * SparkConnectServer} of the line's spark-connect (4.2.0; 3.5.7 on the 3.5 line) on {@code local[2]},
 * in a JVM of its own whose class path the line's spark-connect-server module wrote, so this JVM
 * holds only the Connect client. Started on first use, stopped when the test JVM exits.
 */
public final class ConnectServer {
  private static Process server;
  /** The shared server's port, once it listens; 0 before. */
  private static int port;
  private static SparkSession session;
  private static long startMillis;

  private ConnectServer() {}

  /** The session on the shared server, started if needed; also the default session. */
  public static synchronized SparkSession session() {
    if (session == null) {
      if (port == 0) {
        // once, even if the session below fails: each test would otherwise start (and leave) a server
        port = start();
      }
      session = ConnectLine.remote("sc://127.0.0.1:" + port);
      ConnectLine.setDefault(session);
    }
    return session;
  }

  /** A new session on the shared server, with no artifact of its own yet. */
  public static SparkSession newSession() {
    return ConnectLine.newSession(session());
  }

  /** The options that give the server the tests' classes. */
  public static Map<String, Object> options() {
    return Map.of("jars", System.getProperty("joblib4j.it.jars"));
  }

  /**
   * {@code new SparkBackend(session, options)}, through a method handle: javac cannot choose among
   * SparkBackend's constructors without spark-core's classes (one takes a JavaSparkContext), which a
   * Connect client lacks, and {@code getConstructor} loads every constructor's parameter types; the
   * constructor itself, as compiled code calls it, needs none of them.
   */
  public static SparkBackend sparkBackend(SparkSession session, Map<String, Object> options) {
    try {
      return (SparkBackend) java.lang.invoke.MethodHandles.publicLookup().findConstructor(SparkBackend.class,
          java.lang.invoke.MethodType.methodType(void.class, SparkSession.class, Map.class)).invoke(session, options);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** How long the server took to start, in milliseconds. */
  public static long startMillis() {
    return startMillis;
  }

  /** A server of its own: its JVM and the port it listens on. */
  public record Started(Process process, int port) {}

  private static int start() {
    long t0 = System.nanoTime();
    Started started = launch(Path.of(System.getProperty("joblib4j.it.serverLog")));
    server = started.process();
    Runtime.getRuntime().addShutdownHook(new Thread(ConnectServer::stop, "connect-server-stop"));
    startMillis = (System.nanoTime() - t0) / 1_000_000;
    System.out.println("Spark Connect server listening on " + started.port() + " after " + startMillis + " ms");
    return started.port();
  }

  /**
   * Another server, for a test that stops it (the shared one serves every other test): the caller
   * destroys its process.
   *
   * @param log where its output goes
   * @return the server's JVM and port, once it listens
   */
  public static Started startAnother(Path log) {
    Started started = launch(log);
    Runtime.getRuntime().addShutdownHook(new Thread(started.process()::destroyForcibly, "connect-server-stop"));
    return started;
  }

  private static Started launch(Path log) {
    try {
      String classpath = Files.readString(Path.of(System.getProperty("joblib4j.it.serverClasspathFile"))).trim();
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        port = s.getLocalPort();
      }
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xmx2560m"); // room for SharedArgumentIT's 400 MB argument beside Spark
      cmd.add("-XX:+UseParallelGC");
      cmd.addAll(Arrays.asList(System.getProperty("joblib4j.it.jvmFlags", "").trim().split("\\s+")));
      cmd.addAll(List.of("-cp", classpath,
          "-Dspark.master=local[2]",
          "-Dspark.app.name=joblib4j-connect-it",
          "-Dspark.ui.enabled=false",
          "-Dspark.connect.grpc.binding.address=127.0.0.1",
          "-Dspark.connect.grpc.binding.port=" + port,
          "org.apache.spark.sql.connect.service.SparkConnectServer"));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(log.toFile());
      pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      Process server = pb.start();
      long deadline = System.nanoTime() + 180_000_000_000L;
      while (true) {
        if (!server.isAlive()) {
          throw new IllegalStateException("the Spark Connect server exited with " + server.exitValue()
              + "; see " + log);
        }
        try (Socket probe = new Socket()) {
          probe.connect(new InetSocketAddress("127.0.0.1", port), 500);
          break;
        } catch (IOException notYet) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the Spark Connect server did not listen within 180 s", notYet);
          }
          Thread.sleep(200); // polling a port that is not open yet: nothing to wait on
        }
      }
      return new Started(server, port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static synchronized void stop() {
    if (session != null) {
      try {
        session.close();
      } catch (Exception ignored) {
        // the server is going anyway
      }
    }
    if (server != null) {
      server.destroy();
      try {
        if (!server.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
          server.destroyForcibly();
        }
      } catch (InterruptedException e) {
        server.destroyForcibly();
      }
    }
  }
}
