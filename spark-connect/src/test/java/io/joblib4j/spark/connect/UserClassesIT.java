package io.joblib4j.spark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.fn.Fn1;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.tools.ToolProvider;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application's classes reach the server without a {@code jars} option: each test runs on a
 * new session of the shared server, which no test gave any jar, with classes the server's class
 * path does not have.
 */
class UserClassesIT {
  static int times7(int x) {
    return 7 * x;
  }

  @Test
  void theApplicationsLambdasAndMethodsReachTheServerWithoutAJarsOption() throws Exception {
    int offset = 3;
    try (SparkSession fresh = ConnectServer.newSession();
         Parallel p = Parallel.builder().backend(new SparkConnectBackend(fresh)).nJobs(2).build()) {
      assertThat(p.map((Integer i) -> i + offset, List.of(1, 2, 3))).containsExactly(4, 5, 6);
      assertThat(p.map(UserClassesIT::times7, List.of(1, 2))).containsExactly(7, 14);
    }
  }

  @Test
  void aTaskClassFromAFolderOfItsOwnIsShippedAsAJar(@TempDir Path dir) throws Exception {
    String pkg = "fresh" + UUID.randomUUID().toString().replace("-", "");
    Path classes = compile(dir, pkg, "Triple");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        UserClassesIT.class.getClassLoader())) {
      @SuppressWarnings("unchecked")
      Fn1<Integer, Integer> triple = (Fn1<Integer, Integer>) loader.loadClass(pkg + ".Triple").getConstructor().newInstance();
      try (SparkSession fresh = ConnectServer.newSession();
           Parallel p = Parallel.builder().backend(new SparkConnectBackend(fresh)).nJobs(2).build()) {
        assertThat(p.map(triple, List.of(1, 2, 3))).containsExactly(3, 6, 9);
      }
    }
  }

  @Test
  void aReplClassWithNoCodeSourceReachesTheServerThroughTheClientsClassFinder(@TempDir Path dir) throws Exception {
    String pkg = "repl" + UUID.randomUUID().toString().replace("-", "");
    Path out = compile(dir, pkg, "Triple");
    ClassLoader repl = new ReplLikeLoader(out, UserClassesIT.class.getClassLoader());
    Class<?> type = repl.loadClass(pkg + ".Triple");
    assertThat(type.getProtectionDomain().getCodeSource().getLocation()).as("no code source, as a REPL's").isNull();
    @SuppressWarnings("unchecked")
    Fn1<Integer, Integer> triple = (Fn1<Integer, Integer>) type.getConstructor().newInstance();
    try (SparkSession fresh = ConnectServer.newSession();
         Parallel p = Parallel.builder().backend(new SparkConnectBackend(fresh)).nJobs(2).build()) {
      assertThat(p.map(triple, List.of(1, 2, 3))).containsExactly(3, 6, 9);
    }
  }

  @Test
  void aClassKeptInMemoryWhoseLoaderServesItsClassFileIsShippedAsAClassArtifact(@TempDir Path dir) throws Exception {
    String pkg = "mem" + UUID.randomUUID().toString().replace("-", "");
    Path out = compile(dir, pkg, "Triple");
    Map<String, byte[]> files = new HashMap<>();
    try (var walk = Files.walk(out)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        files.put(out.relativize(f).toString().replace(java.io.File.separatorChar, '/'), Files.readAllBytes(f));
      }
    }
    try (var walk = Files.walk(out)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete()); // in memory only now
    }
    ClassLoader notebook = new InMemoryLoader(files, UserClassesIT.class.getClassLoader());
    Class<?> type = notebook.loadClass(pkg + ".Triple");
    assertThat(notebook.getResource(pkg.replace('.', '/') + "/Triple.class")).as("no file to point at").isNull();
    @SuppressWarnings("unchecked")
    Fn1<Integer, Integer> triple = (Fn1<Integer, Integer>) type.getConstructor().newInstance();
    try (SparkSession fresh = ConnectServer.newSession();
         Parallel p = Parallel.builder().backend(new SparkConnectBackend(fresh)).nJobs(2).build()) {
      assertThat(p.map(triple, List.of(1, 2, 3))).containsExactly(3, 6, 9);
    }
  }

  /** Compiles {@code pkg.name}, an {@code Fn1<Integer, Integer>} tripling its input, into a folder of its own. */
  private static Path compile(Path dir, String pkg, String name) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src"));
    Path out = Files.createDirectories(dir.resolve("classes"));
    Path file = Files.writeString(src.resolve(name + ".java"), "package " + pkg + ";\n"
        + "public class " + name + " implements io.joblib4j.fn.Fn1<Integer, Integer> {\n"
        + "  private static final long serialVersionUID = 1L;\n"
        + "  public Integer invoke(Integer x) { return 3 * x; }\n"
        + "}\n");
    String cp = location(Fn1.class) + java.io.File.pathSeparator + location(org.apiguardian.api.API.class);
    int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-cp", cp, "-d", out.toString(), file.toString());
    assertThat(rc).isZero();
    return out;
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /**
   * Defines classes as a notebook's REPL does when it keeps them in memory: no code source, no file;
   * their class files served as resource streams only (as Scala's {@code AbstractFileClassLoader}).
   */
  static final class InMemoryLoader extends ClassLoader {
    private final Map<String, byte[]> files;

    InMemoryLoader(Map<String, byte[]> files, ClassLoader parent) {
      super(parent);
      this.files = files;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] bytes = files.get(name.replace('.', '/') + ".class");
      if (bytes == null) {
        throw new ClassNotFoundException(name);
      }
      return defineClass(name, bytes, 0, bytes.length);
    }

    @Override
    public java.io.InputStream getResourceAsStream(String name) {
      byte[] bytes = files.get(name);
      return bytes != null ? new java.io.ByteArrayInputStream(bytes) : super.getResourceAsStream(name);
    }
  }

  /**
   * Defines classes as a REPL does, without a code source, from class files in an output folder,
   * whose files it serves as resources (a Scala REPL started with {@code -Yrepl-outdir}).
   */
  static final class ReplLikeLoader extends ClassLoader {
    private final Path out;

    ReplLikeLoader(Path out, ClassLoader parent) {
      super(parent);
      this.out = out;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      Path file = out.resolve(name.replace('.', '/') + ".class");
      if (!Files.isRegularFile(file)) {
        throw new ClassNotFoundException(name);
      }
      try {
        byte[] bytes = Files.readAllBytes(file);
        return defineClass(name, bytes, 0, bytes.length);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    protected URL findResource(String name) {
      Path file = out.resolve(name);
      try {
        return Files.isRegularFile(file) ? file.toUri().toURL() : null;
      } catch (MalformedURLException e) {
        return null;
      }
    }
  }
}
