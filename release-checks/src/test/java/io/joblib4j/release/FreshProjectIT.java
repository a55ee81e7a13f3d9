package io.joblib4j.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A new user's first contact, as the README describes it: a fresh Maven project with only the
 * dependency the README's "Use it in your project" section gives, and the README's hello world as
 * its one source file, compiles and runs, offline, against a local repository that holds joblib4j
 * as {@code mvn install} would have put it there. The README's text is read, not copied: change the
 * README and this test builds what it now says.
 */
class FreshProjectIT {
  static final String SECTION = "## Use it in your project";
  static final String EXPECTED_RESULT = "[0.0, 1.0, 4.0, 9.0, 16.0, 25.0, 36.0, 49.0]";

  @Test
  void aProjectMadeFromTheReadmeCompilesAndRunsTheHelloWorldOffline() throws Exception {
    String readme = Files.readString(Release.root().resolve("README.md"), StandardCharsets.UTF_8);
    String dependencies = codeBlockAfter(readme, "<!-- fresh-project: dependencies -->");
    String hello = codeBlockAfter(readme, "<!-- fresh-project: Hello.java -->");
    assertThat(readme.indexOf("<!-- fresh-project: Hello.java -->")).as("the hello world comes first, before"
        + " the installation").isLessThan(readme.indexOf(SECTION));

    Path dir = Release.freshFolder("fresh-project");
    Path repo = dir.resolve("repository");
    installAsMvnInstallWould(repo);
    Path project = Files.createDirectories(dir.resolve("hello"));
    Files.writeString(project.resolve("pom.xml"), pom(dependencies));
    Files.createDirectories(project.resolve("src/main/java"));
    Files.writeString(project.resolve("src/main/java/Hello.java"), hello);
    Path settings = dir.resolve("settings.xml");
    Files.writeString(settings, offlineSettings());

    Release.Outcome build = Release.run(List.of(Release.mvn(), "-B", "-ntp", "-o",
        "-Daether.offline.protocols=file", "-s", settings.toString(), "-Dmaven.repo.local=" + repo,
        "compile", "org.apache.maven.plugins:maven-dependency-plugin:"
            + Release.property("release.dependencyPluginVersion") + ":build-classpath",
        "-Dmdep.outputFile=classpath.txt"), project, mavenEnvironment(), dir.resolve("mvn.log"), 10);
    assertThat(build.exitCode()).as("mvn compile of the README's project:\n" + build.tail()).isZero();

    String dependencyPath = Files.readString(project.resolve("classpath.txt")).trim();
    Path engineApi = java.util.Arrays.stream(dependencyPath.split(java.io.File.pathSeparator)).map(Path::of)
        .filter(p -> p.getFileName().toString().startsWith("joblib4j-engine-api")).findFirst().orElseThrow();
    assertThat(engineApi).as("the project's joblib4j is the one this build made, from the repository under"
        + " target").startsWith(repo).hasSameBinaryContentAs(Release.modules().get(0).jar());
    String classpath = project.resolve("target/classes") + java.io.File.pathSeparator + dependencyPath;
    List<String> runHello = List.of(Release.java(), "-Xmx256m", "-cp", classpath, "Hello");
    Release.Outcome first = Release.run(runHello, project, Map.of(), dir.resolve("first-run.log"), 5);
    assertThat(first.exitCode()).as(first.tail()).isZero();
    assertThat(first.output().lines()).as(first.tail()).contains(EXPECTED_RESULT);
    assertThat(count(first.output(), "slowSquare")).as("Memory says what it computes:\n" + first.tail())
        .isGreaterThanOrEqualTo(8);

    Release.Outcome second = Release.run(runHello, project, Map.of(), dir.resolve("second-run.log"), 5);
    assertThat(second.exitCode()).as(second.tail()).isZero();
    assertThat(second.output().lines()).contains(EXPECTED_RESULT);
    assertThat(count(second.output(), "slowSquare")).as("the second run loads every result, as the README"
        + " says, and computes nothing:\n" + second.tail()).isZero();
  }

  @Test
  void theReadmeNamesEveryPublishedArtifactAndOnlyThoseAtThisVersion() throws IOException {
    String readme = Files.readString(Release.root().resolve("README.md"), StandardCharsets.UTF_8);
    int start = readme.indexOf(SECTION);
    assertThat(start).as("README section " + SECTION).isNotNegative();
    int end = readme.indexOf("\n## ", start + SECTION.length());
    String section = readme.substring(start, end < 0 ? readme.length() : end);

    Set<String> published = new LinkedHashSet<>();
    Release.modules().forEach(m -> published.add(m.artifactId()));
    Set<String> named = new LinkedHashSet<>();
    Matcher artifact = Pattern.compile("joblib4j-[a-z0-9-]+(_2\\.13)?").matcher(section);
    while (artifact.find()) {
      String name = artifact.group();
      // sbt's %% "joblib4j-scala" is joblib4j-scala_2.13
      named.add(published.contains(name) || !published.contains(name + "_2.13") ? name : name + "_2.13");
    }
    assertThat(named).as("artifacts the section names").containsExactlyInAnyOrderElementsOf(published);

    List<String> versions = new ArrayList<>();
    for (String coordinates : List.of("<version>([^<]+)</version>", "\"io\\.joblib4j:[a-z0-9_.-]+:([^\"]+)\"",
        "\"io\\.joblib4j\" %%? \"[a-z0-9_.-]+\" % \"([^\"]+)\"", "version `([^`]+)`")) {
      Matcher m = Pattern.compile(coordinates).matcher(section);
      int found = 0;
      while (m.find()) {
        versions.add(m.group(1));
        found++;
      }
      assertThat(found).as("coordinates of the form " + coordinates).isPositive();
    }
    assertThat(versions).as("versions in the section").containsOnly(Release.version());
  }

  @Test
  void theExampleNotebooksAttachTheBundleAsTheGuideSaysAndNoOtherJoblib4jArtifact() throws IOException {
    String guide = Files.readString(Release.root().resolve("docs/spark.md"), StandardCharsets.UTF_8);
    assertThat(guide).as("the guide's word on notebooks (docs/spark.md)").contains("A notebook on a cluster takes the same jar");
    try (Stream<Path> notebooks = Files.list(Release.root().resolve("examples/notebooks"))) {
      for (Path notebook : notebooks.toList()) {
        String text = Files.readString(notebook, StandardCharsets.UTF_8);
        Set<String> named = new LinkedHashSet<>();
        for (Release.Published m : Release.modules()) {
          if (text.contains(m.artifactId()) || text.contains(m.artifactId().replace("_2.13", "\""))) {
            named.add(m.artifactId());
          }
        }
        assertThat(named).as(notebook.getFileName() + ": the joblib4j artifacts it names")
            .containsExactly("joblib4j-spark-4-bundle_2.13");
      }
    }
  }

  /** The content of the first fenced code block after {@code marker}. */
  static String codeBlockAfter(String text, String marker) {
    int at = text.indexOf(marker);
    assertThat(at).as("README marker " + marker).isNotNegative();
    int open = text.indexOf("```", at);
    int bodyStart = text.indexOf('\n', open) + 1;
    int close = text.indexOf("\n```", bodyStart);
    assertThat(open).isPositive();
    assertThat(close).isPositive();
    return text.substring(bodyStart, close + 1);
  }

  private static long count(String text, String word) {
    return text.lines().filter(l -> l.contains(word)).count();
  }

  /** joblib4j's published modules and their parent, as {@code mvn install} lays them out in a local repository. */
  private static void installAsMvnInstallWould(Path repo) throws IOException {
    Path root = Release.root();
    install(repo, "joblib4j-parent", root.resolve("pom.xml"), null);
    Map<String, String> folders = Map.of("joblib4j-engine-api", "engine-api", "joblib4j-scala_2.13", "scala",
        "joblib4j-spark-backend_2.13", "spark-backend", "joblib4j-hdfs-store", "hdfs-store",
        "joblib4j-stage-cache_2.13", "stage-cache", "joblib4j-spark-connect_2.13", "spark-connect",
        "joblib4j-spark-4-bundle_2.13", "spark-bundle", "joblib4j-cli", "cli");
    for (Release.Published m : Release.modules()) {
      Path folder = root.resolve(folders.get(m.artifactId()));
      // the shade plugin installs the bundle with its dependency-reduced pom
      Path reduced = folder.resolve("target/dependency-reduced-pom.xml");
      install(repo, m.artifactId(), Files.exists(reduced) ? reduced : folder.resolve("pom.xml"), m.jar());
    }
  }

  private static void install(Path repo, String artifactId, Path pom, Path jar) throws IOException {
    String version = Release.version();
    Path dir = Files.createDirectories(repo.resolve("io/joblib4j").resolve(artifactId).resolve(version));
    Files.copy(pom, dir.resolve(artifactId + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    if (jar != null) {
      assertThat(jar).as(artifactId + " jar (run the build through the reactor, -am)").isRegularFile();
      Files.copy(jar, dir.resolve(artifactId + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static String pom(String dependencies) {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>hello</artifactId>
          <version>1.0</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
          <dependencies>
        %s  </dependencies>
          <build>
            <plugins>
              <!-- versions the joblib4j build already fetched: Maven's defaults would be downloads -->
              <plugin>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>%s</version>
              </plugin>
              <plugin>
                <artifactId>maven-resources-plugin</artifactId>
                <version>%s</version>
              </plugin>
            </plugins>
          </build>
        </project>
        """.formatted(dependencies.indent(4), Release.property("release.compilerPluginVersion"),
        Release.property("release.resourcesPluginVersion"));
  }

  /**
   * Every repository mirrored to the Maven repository of the build running this test, read as a
   * file: URL (allowed offline by aether.offline.protocols=file). So the fresh project reaches no
   * network, and finds only what this build itself needed besides joblib4j.
   */
  private static String offlineSettings() {
    return """
        <settings>
          <mirrors>
            <mirror>
              <id>this-build</id>
              <mirrorOf>*</mirrorOf>
              <url>%s</url>
            </mirror>
          </mirrors>
        </settings>
        """.formatted(Release.path("release.userRepository").toUri());
  }

  private static Map<String, String> mavenEnvironment() {
    return Map.of("JAVA_HOME", System.getProperty("java.home"), "MAVEN_OPTS", "-Xmx512m -XX:+UseSerialGC");
  }
}
