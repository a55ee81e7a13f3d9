package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A location that cannot hold a cache is refused at once; one that stops working is told, even without SLF4J. */
class MisconfiguredLocationTest {
  @TempDir Path dir;

  public static int twice(int x) {
    return 2 * x;
  }

  @Test
  void aLocationThatIsAFileIsRefusedWhenTheMemoryIsBuilt() throws Exception {
    Path file = Files.writeString(dir.resolve("notes.txt"), "not a cache");
    String expected = "the Memory location " + file + " is a file, not a folder";
    assertThatThrownBy(() -> new Memory(file.toString())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(expected);
    assertThatThrownBy(() -> new Memory(file)).hasMessageContaining(expected).hasMessageContaining("Give the path of a folder");
    assertThatThrownBy(() -> new Memory(file.toUri())).hasMessageContaining(expected);
    assertThatThrownBy(() -> Memory.builder(file.toString()).verbose(0).build()).hasMessageContaining(expected);
    assertThat(Files.readString(file)).isEqualTo("not a cache");
  }

  @Test
  void aLocationUnderAFileIsRefusedToo() throws Exception {
    Path file = Files.writeString(dir.resolve("notes.txt"), "x");
    assertThatThrownBy(() -> new Memory(file.resolve("cache").toString()))
        .hasMessageContaining("the Memory location " + file.resolve("cache") + " cannot be created: " + file
            + " is a file, not a folder");
  }

  /**
   * A cache folder replaced by a file after the Memory was built: calls compute without it, and with
   * no SLF4J binding on the class path (warnings would go nowhere) one line on stderr says so, once.
   */
  @Test
  void withoutAnSlf4jBindingACacheThatCannotBeUsedIsToldOnceOnStderr() throws Exception {
    String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.contains("slf4j-simple")).collect(Collectors.joining(File.pathSeparator));
    Path cache = dir.resolve("cache");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-cp", classPath, BrokenCache.class.getName(), cache.toString()));
    Path err = dir.resolve("stderr.txt");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String stderr = Files.readString(err);
    assertThat(p.exitValue()).as(out + stderr).isZero();
    assertThat(out).contains("results 2 4 2");
    List<String> told = stderr.lines().filter(l -> l.startsWith("joblib4j WARNING:")).toList();
    assertThat(told).as(stderr).hasSize(1);
    assertThat(told.get(0)).contains("the cache at " + cache + " cannot be used").contains(cache + " is a file, not a folder")
        .contains("add an SLF4J binding");
    assertThat(out).contains("clear: cannot open the cache folder " + cache + ": " + cache + " is a file, not a folder");
  }

  /** Run in a child JVM without an SLF4J binding. */
  public static final class BrokenCache {
    public static void main(String[] args) throws Exception {
      Path cache = Path.of(args[0]);
      Memory memory = Memory.builder(cache.toString()).verbose(0).build();
      Files.writeString(cache, "a file where the cache was to be"); // built before the folder existed
      MemoizedFn1<Integer, Integer> f = memory.cache(MisconfiguredLocationTest::twice);
      System.out.println("results " + f.apply(1) + " " + f.apply(2) + " " + f.apply(1));
      try {
        memory.clear();
      } catch (RuntimeException e) {
        System.out.println("clear: " + e.getMessage());
      }
    }
  }
}
