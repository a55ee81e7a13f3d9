package io.joblib4j.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is inside a joblib4j spark bundle, read from the packaged jar (hence an IT: it runs after
 * {@code package}): joblib4j's classes and, relocated under io.joblib4j.shaded, the libraries Spark
 * lacks; nothing of Spark, Hadoop, Scala or what Spark ships; merged service files; and every
 * reference resolvable on Spark's own class path.
 */
class BundleJarIT {
  /** The libraries relocated into the bundle, by their original and relocated class-file prefixes. */
  static final Map<String, String> RELOCATED = Map.of(
      "org/objectweb/asm/", "io/joblib4j/shaded/asm/",
      "com/esotericsoftware/kryo/kryo5/", "io/joblib4j/shaded/kryo5/",
      "com/dynatrace/hash4j/", "io/joblib4j/shaded/hash4j/");

  /** @API's annotation types: unrelocated, for javac (see the NOTICE); nothing uses them at run time. */
  static final String API_ANNOTATIONS = "org/apiguardian/api/";

  private static JarFile bundle;

  @BeforeAll
  static void open() throws IOException {
    bundle = new JarFile(Bundle.jar().toFile());
  }

  @AfterAll
  static void close() throws IOException {
    bundle.close();
  }

  @Test
  void holdsOnlyJoblib4jClassesNothingOfSparkHadoopScalaOrWhatSparkShips() {
    List<String> foreign = classes().stream()
        .filter(c -> !c.startsWith("io/joblib4j/") && !c.startsWith(API_ANNOTATIONS)).toList();
    assertThat(foreign).as("classes outside io/joblib4j (Spark, Hadoop, Scala, Jackson, lz4, ... must"
        + " come from Spark's class path; what Spark lacks must be relocated)").isEmpty();
    assertThat(classes()).as("the optional console bar stays out").noneMatch(c -> c.contains("progressbar") || c.contains("jline"));
  }

  @Test
  void carriesEveryModuleAndTheLibrariesSparkLacksRelocated() {
    assertThat(classes()).contains(
        "io/joblib4j/shaded/asm/ClassReader.class",
        "io/joblib4j/shaded/kryo5/Kryo.class",
        "io/joblib4j/shaded/kryo5/objenesis/ObjenesisStd.class",
        "io/joblib4j/shaded/hash4j/hashing/XXH3_128.class",
        "io/joblib4j/Parallel.class",
        "io/joblib4j/spark/internal/ExecutorWorker.class",
        "io/joblib4j/hdfs/HadoopStoreProvider.class",
        "io/joblib4j/scala/package$.class");
  }

  @Test
  void noClassRefersToALibraryByItsUnrelocatedName() throws IOException {
    List<String> leaks = new ArrayList<>();
    for (JarEntry e : Collections.list(bundle.entries())) {
      if (!e.getName().endsWith(".class")) {
        continue;
      }
      String text = new String(read(e), StandardCharsets.ISO_8859_1);
      for (String prefix : RELOCATED.keySet()) {
        if (text.contains(prefix) || text.contains(prefix.replace('/', '.'))) {
          leaks.add(e.getName() + " -> " + prefix);
        }
      }
    }
    assertThat(leaks).isEmpty();
  }

  @Test
  void carriesTheModulesCurrentClassesNotAnEarlierBuildsCopies() throws IOException {
    // the module jars on this test's class path; classes that refer to no relocated library keep their bytes
    List<String> differ = new ArrayList<>();
    int compared = 0;
    List<String> probes = new ArrayList<>(List.of("io/joblib4j/Parallel.class", "io/joblib4j/spark/SparkBackend.class",
        "io/joblib4j/hdfs/HadoopStoreProvider.class", "io/joblib4j/scala/package$.class"));
    if (Bundle.connectClientClasspath().isPresent()) {
      probes.add("io/joblib4j/spark/connect/SparkConnectBackend.class");
    }
    for (String probe : probes) {
      URL module = getClass().getClassLoader().getResource(probe);
      assertThat(module).as(probe).isNotNull();
      String path = module.getPath();
      try (JarFile jar = new JarFile(Path.of(java.net.URI.create(path.substring(0, path.indexOf("!/")))).toFile())) {
        for (JarEntry e : Collections.list(jar.entries())) {
          if (!e.getName().endsWith(".class")) {
            continue;
          }
          byte[] original;
          try (InputStream in = jar.getInputStream(e)) {
            original = in.readAllBytes();
          }
          String text = new String(original, StandardCharsets.ISO_8859_1);
          if (RELOCATED.keySet().stream().anyMatch(text::contains)) {
            continue;
          }
          JarEntry inBundle = bundle.getJarEntry(e.getName());
          compared++;
          if (inBundle == null || !java.util.Arrays.equals(read(inBundle), original)) {
            differ.add(e.getName());
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(100);
    assertThat(differ).as("classes missing from the bundle or not the modules' current build").isEmpty();
  }

  @Test
  void serviceFilesListEveryProviderOfEveryModule() throws IOException {
    Map<String, Set<String>> expected = new TreeMap<>();
    for (String spi : List.of("io.joblib4j.spi.BackendProvider", "io.joblib4j.spi.StoreProvider")) {
      // the module jars on this test's class path, each with its own file of the same name
      for (URL u : Collections.list(getClass().getClassLoader().getResources("META-INF/services/" + spi))) {
        try (InputStream in = u.openStream()) {
          expected.computeIfAbsent(spi, k -> new TreeSet<>()).addAll(providers(in));
        }
      }
    }
    assertThat(expected.get("io.joblib4j.spi.BackendProvider"))
        .contains("io.joblib4j.spark.internal.SparkBackendProvider", "io.joblib4j.internal.threads.ThreadsBackend$Provider");
    assertThat(expected.get("io.joblib4j.spi.StoreProvider")).contains("io.joblib4j.hdfs.HadoopStoreProvider");
    for (Map.Entry<String, Set<String>> e : expected.entrySet()) {
      JarEntry file = bundle.getJarEntry("META-INF/services/" + e.getKey());
      assertThat(file).as(e.getKey()).isNotNull();
      Set<String> inBundle;
      try (InputStream in = bundle.getInputStream(file)) {
        inBundle = providers(in);
      }
      assertThat(inBundle).as("providers of " + e.getKey()).isEqualTo(e.getValue());
      for (String provider : inBundle) {
        assertThat(bundle.getJarEntry(provider.replace('.', '/') + ".class")).as(provider).isNotNull();
      }
    }
  }

  @Test
  void carriesJoblib4jsLicenseAndTheNoticeAndLicenseOfEveryLibraryItShades() throws IOException {
    assertThat(text("META-INF/LICENSE")).as("joblib4j's own license").contains("Apache License")
        .contains("Version 2.0, January 2004");
    String notice = text("META-INF/NOTICE");
    assertThat(notice).startsWith("joblib4j spark bundle").contains("Copyright 2026 The joblib4j authors");
    Set<String> shaded = new TreeSet<>();
    for (String c : classes()) {
      if (c.startsWith("io/joblib4j/shaded/")) {
        shaded.add("io.joblib4j.shaded." + c.split("/")[3]);
      }
    }
    assertThat(shaded).as("relocated libraries").hasSize(RELOCATED.size());
    assertThat(shaded).as("every relocated library is named in META-INF/NOTICE").allMatch(notice::contains);
    // Kryo 5 carries libraries of its own, relocated within it: each is named with its license too
    Map<String, String> withinKryo = Map.of("asm", "ASM", "minlog", "MinLog", "reflectasm", "ReflectASM",
        "objenesis", "Objenesis");
    for (Map.Entry<String, String> lib : withinKryo.entrySet()) {
      assertThat(classes()).as(lib.getKey()).anyMatch(c -> c.startsWith("io/joblib4j/shaded/kryo5/" + lib.getKey() + "/"));
      assertThat(notice).as(lib.getValue()).contains(lib.getValue());
    }
    assertThat(notice).as("Objenesis' own NOTICE (Apache-2.0, section 4(d))")
        .contains("Copyright 2006-2024 Joe Walnes, Henri Tremblay, Leonardo Mesquita");
    java.util.regex.Matcher named = java.util.regex.Pattern.compile("META-INF/licenses/[a-z0-9-]+\\.txt").matcher(notice);
    List<String> licenses = new ArrayList<>();
    while (named.find()) {
      licenses.add(named.group());
    }
    assertThat(licenses).as("license files the NOTICE names").contains("META-INF/licenses/asm.txt",
        "META-INF/licenses/kryo.txt", "META-INF/licenses/minlog.txt", "META-INF/licenses/reflectasm.txt");
    for (String file : licenses) {
      assertThat(text(file)).as(file).contains("Redistribution and use in source and binary forms")
          .contains("Copyright (c)");
    }
    assertThat(text("META-INF/licenses/asm.txt")).contains("INRIA, France Telecom");
    assertThat(classes()).as("API Guardian's annotation types").contains(API_ANNOTATIONS + "API.class");
    assertThat(notice).as("API Guardian, carried unrelocated").contains("org.apiguardian:apiguardian-api");
  }

  @Test
  void namesItsJavaModuleInTheManifest() throws IOException {
    assertThat(bundle.getManifest().getMainAttributes().getValue("Automatic-Module-Name"))
        .isEqualTo("io.joblib4j.spark.bundle");
  }

  @Test
  void everyReferenceResolvesOnSparksOwnClassPath() throws IOException {
    List<String> problems = Bundle.unresolvedOn(Bundle.sparkClasspath());
    assertThat(problems).as("references the bundle makes that Spark " + System.getProperty("bundle.sparkVersion")
        + "'s class path cannot satisfy: add the library to spark-bundle/pom.xml (relocated) or"
        + " stop using it").isEmpty();
  }

  @Test
  void theSparkConnectPathResolvesOnAConnectClientsClassPath() throws IOException {
    Optional<List<Path>> client = Bundle.connectClientClasspath();
    assertThat(classes().stream().anyMatch(c -> Bundle.connectPath(c.replace(".class", ""))))
        .as("the bundle carries the Spark Connect path exactly where this line has a Connect client")
        .isEqualTo(client.isPresent());
    if (client.isPresent()) {
      assertThat(Bundle.connectPathUnresolvedOn(client.get())).as("references of the Connect path that the"
          + " Spark Connect client " + System.getProperty("bundle.sparkVersion") + " cannot satisfy").isEmpty();
    }
  }

  @Test
  void aProgramCompiledAgainstTheBundleAloneGetsNoWarnings(@TempDir Path dir) throws IOException {
    // javac reads the @API(status = STABLE) on joblib4j's types: without the annotation's class in
    // the bundle, every use printed "unknown enum constant Status.STABLE"
    Path source = Files.writeString(dir.resolve("Hello.java"), """
        import static io.joblib4j.Delayed.delayed;

        import io.joblib4j.Memory;
        import io.joblib4j.Parallel;
        import io.joblib4j.MemoizedFn1;
        import java.util.List;
        import java.util.stream.IntStream;
        public class Hello {
          public static int square(int x) { return x * x; }
          public static void main(String[] args) {
            Memory memory = Memory.builder("cache").verbose(0).build();
            MemoizedFn1<Integer, Integer> cached = memory.cache(Hello::square);
            List<Integer> out = Parallel.builder().nJobs(2).build()
                .run(IntStream.range(0, 3).mapToObj(i -> delayed(cached, i)));
            System.out.println(out);
          }
        }
        """);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
      boolean compiled = javac.getTask(null, files, diagnostics,
          List.of("-classpath", Bundle.jar().toString(), "-d", dir.toString(), "-Xlint:all,-processing"), null,
          files.getJavaFileObjects(source)).call();
      List<String> reported = diagnostics.getDiagnostics().stream().map(d -> d.getKind() + ": " + d.getMessage(null)).toList();
      assertThat(compiled).as("%s", reported).isTrue();
      assertThat(reported).as("what javac reported compiling against the bundle alone").isEmpty();
    }
  }

  @Test
  void onlyTheConsoleBarTouchesTheOptionalProgressbarLibrary() throws IOException {
    List<String> users = new ArrayList<>();
    for (JarEntry e : Collections.list(bundle.entries())) {
      if (e.getName().endsWith(".class")
          && new String(read(e), StandardCharsets.ISO_8859_1).contains("me/tongfei/progressbar")) {
        users.add(e.getName());
      }
    }
    // ConsoleBarReporter checks for the library before it creates a ProgressBarListener
    assertThat(users).isNotEmpty().allMatch(n -> n.startsWith("io/joblib4j/internal/progress/ProgressBarListener"));
  }

  private static Set<String> classes() {
    Set<String> names = new TreeSet<>();
    for (JarEntry e : Collections.list(bundle.entries())) {
      if (e.getName().endsWith(".class")) {
        names.add(e.getName());
      }
    }
    return names;
  }

  private static String text(String entry) throws IOException {
    JarEntry e = bundle.getJarEntry(entry);
    assertThat(e).as(entry + " in the bundle").isNotNull();
    return new String(read(e), StandardCharsets.UTF_8);
  }

  private static byte[] read(JarEntry e) throws IOException {
    try (InputStream in = bundle.getInputStream(e)) {
      return in.readAllBytes();
    }
  }

  private static Set<String> providers(InputStream in) throws IOException {
    Set<String> out = new TreeSet<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line; (line = r.readLine()) != null; ) {
      String s = line.replaceAll("#.*", "").trim();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }
}
