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
 * no spark-core and no {@code org.apache.spark.sql.connect.SparkSession}. The real 3.5 client jar
 * is not served by the registry this build reaches, so the test compiles that class layout (the two
 * classes, with the static methods the backend calls) and loads joblib4j beside it in a class
 * loader of its own, with no Spark 4 class visible: {@code backend("spark")} and {@code new
 * SparkBackend(session)} must refuse Spark 3.x at once, not fail with a NoClassDefFoundError.
 */
class SparkThreeConnectClientTest {
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
  void aSparkThreeConnectClientIsRefusedAtOnceNamingTheSupportedVersions(@TempDir Path dir) throws Throwable {
    try (URLClassLoader client = sparkThreeClient(dir)) {
      Thread.currentThread().setContextClassLoader(client);
      Throwable byName = catchThrowable(() -> Class.forName(Backends.class.getName(), true, client)
          .getMethod("create", String.class, Map.class).invoke(null, "spark", Map.of()));
      assertRefusesSparkThree(byName);

      Class<?> session = Class.forName("org.apache.spark.sql.SparkSession", true, client);
      Class<?> backend = Class.forName(SparkBackend.class.getName(), true, client);
      Object s = session.getConstructor().newInstance();
      Throwable constructed = catchThrowable(() -> MethodHandles.publicLookup()
          .findConstructor(backend, MethodType.methodType(void.class, session, Map.class)).invoke(s, Map.of()));
      assertRefusesSparkThree(constructed);
    } finally {
      Thread.currentThread().setContextClassLoader(SparkThreeConnectClientTest.class.getClassLoader());
    }
  }

  private static void assertRefusesSparkThree(Throwable t) {
    Throwable cause = t instanceof InvocationTargetException ite ? ite.getCause() : t;
    assertThat(cause).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("Spark 3.x is not supported")
        .hasMessageContaining("Spark 4.0, 4.1 and 4.2")
        .hasMessageContaining("Spark Connect client")
        .hasMessageContaining("spark.api.mode=classic")
        .hasMessageContaining("backend(\"threads\")");
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
    List<URL> urls = new ArrayList<>();
    urls.add(out.toUri().toURL());
    for (Class<?> c : List.of(SparkBackend.class, Backends.class, scala.Option.class, org.slf4j.Logger.class)) {
      urls.add(Path.of(location(c)).toUri().toURL());
    }
    return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
