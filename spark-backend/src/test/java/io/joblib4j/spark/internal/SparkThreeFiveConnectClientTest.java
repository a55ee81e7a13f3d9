package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.joblib4j.spark.SparkBackend;
import io.joblib4j.spi.Backends;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spark 3.5 Connect client: its session is the class {@code org.apache.spark.sql.SparkSession}
 * itself, beside the client's {@code org.apache.spark.sql.connect.client.SparkConnectClient}, with
 * no spark-core and no {@code org.apache.spark.sql.connect.SparkSession}. The test compiles that
 * class layout (the two classes, with the static methods the backend calls, in a jar whose manifest
 * says 3.5.0, as the client's does) and loads joblib4j beside it in a class loader of its own, with
 * no Spark 4 class visible. {@code backend("spark")} and {@code new SparkBackend(session)} must
 * recognize the session as Connect's and, at once and not with a NoClassDefFoundError: on the Spark 4
 * line and on 3.5 with Scala 2.13 refuse it, naming the 3.5 / Scala 2.12 bundle; on 3.5 with Scala
 * 2.12, whose Connect path this is, look for that path (here absent), naming its jar.
 */
class SparkThreeFiveConnectClientTest {
  private static final String SESSION = """
      package org.apache.spark.sql;
      public class SparkSession {
        public static scala.Option<SparkSession> getActiveSession() { return scala.Option.apply(new SparkSession()); }
        public static scala.Option<SparkSession> getDefaultSession() { return getActiveSession(); }
      }
      """;
  private static final String CLIENT = """
      package org.apache.spark.sql.connect.client;
      public class SparkConnectClient {}
      """;

  @Test
  void aSparkThreeFiveConnectSessionIsRecognizedAndSentToThisLinesConnectPathOrRefusedNamingIt(@TempDir Path dir)
      throws Throwable {
    try (URLClassLoader client = sparkThreeClient(dir)) {
      Thread.currentThread().setContextClassLoader(client);
      Throwable byName = catchThrowable(() -> Class.forName(Backends.class.getName(), true, client)
          .getMethod("create", String.class, Map.class).invoke(null, "spark", Map.of()));
      assertRefusesSparkThree(byName);

      Class<?> session = Class.forName("org.apache.spark.sql.SparkSession", true, client);
      Class<?> backend = Class.forName(SparkBackend.class.getName(), true, client);
      Object s = session.getConstructor().newInstance();
      assertThat(Class.forName(ConnectDispatch.class.getName(), true, client).getMethod("isConnect", Object.class)
          .invoke(null, s)).as("the 3.5 client's session, named as classic Spark's, with no spark-core").isEqualTo(true);
      Throwable constructed = catchThrowable(() -> MethodHandles.publicLookup()
          .findConstructor(backend, MethodType.methodType(void.class, session, Map.class)).invoke(s, Map.of()));
      assertRefusesSparkThree(constructed);
    } finally {
      Thread.currentThread().setContextClassLoader(SparkThreeFiveConnectClientTest.class.getClassLoader());
    }
  }

  private static void assertRefusesSparkThree(Throwable t) {
    Throwable cause = t instanceof InvocationTargetException ite ? ite.getCause() : t;
    assertThat(cause).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("spark.api.mode=classic")
        .hasMessageContaining("backend(\"threads\")");
    if (LineJars.connectBuilt(BuiltForSpark.LINE, BuiltForScala.BINARY) && BuiltForSpark.LINE.equals("3.5")) {
      // this line's own client: the Connect path is looked for, and is not in this class loader
      assertThat(cause).hasMessageContaining("joblib4j-spark-connect-3.5_2.12, which is not on the class path")
          .hasMessageContaining("joblib4j-spark-3.5-bundle_2.12");
    } else if (BuiltForScala.BINARY.equals("2.13")) {
      // the test JVM's Scala is 2.13: a 3.5 client on 2.13, which no line has a Connect path for
      assertThat(cause).hasMessageContaining("Spark 3.5.0 Spark Connect client on Scala 2.13")
          .hasMessageContaining("its session is org.apache.spark.sql.SparkSession")
          .hasMessageContaining("No joblib4j Connect path is built for Spark 3.5 with Scala 2.13")
          .hasMessageContaining("serves no spark-connect-client-jvm_2.13 for Spark 3.5")
          .hasMessageContaining("joblib4j-spark-3.5-bundle_2.12");
    } else {
      throw new AssertionError("a line this test does not know: " + BuiltForSpark.LINE + "/" + BuiltForScala.BINARY);
    }
  }

  /** The 3.5 client's class layout, joblib4j (engine-api, spark-backend), Scala and SLF4J; no Spark 4. */
  private static URLClassLoader sparkThreeClient(Path dir) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src"));
    Path out = Files.createDirectories(dir.resolve("classes"));
    Path session = Files.writeString(src.resolve("SparkSession.java"), SESSION);
    Path client = Files.writeString(src.resolve("SparkConnectClient.java"), CLIENT);
    String scala = location(scala.Option.class);
    int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-cp", scala, "-d", out.toString(),
        session.toString(), client.toString());
    assertThat(rc).as("the stub client compiles").isZero();
    // a jar whose manifest gives the client's version, as spark-connect-client-jvm's does
    Path jar = dir.resolve("spark-connect-client-jvm-stub.jar");
    java.util.jar.Manifest manifest = new java.util.jar.Manifest();
    manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(java.util.jar.Attributes.Name.IMPLEMENTATION_VERSION, "3.5.0");
    try (var walk = Files.walk(out);
         java.util.jar.JarOutputStream j = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), manifest)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        j.putNextEntry(new java.util.zip.ZipEntry(out.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
        Files.copy(f, j);
        j.closeEntry();
      }
    }
    List<URL> urls = new ArrayList<>();
    urls.add(jar.toUri().toURL());
    for (Class<?> c : List.of(SparkBackend.class, Backends.class, scala.Option.class, org.slf4j.Logger.class)) {
      urls.add(Path.of(location(c)).toUri().toURL());
    }
    return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
