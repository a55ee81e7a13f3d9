package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 3 KB file must not be able to take a JVM's heap (issue 19.2): a zstd file holding a List of
 * 10 million empty HashMaps, loaded with the default options in a JVM of 256 MiB while another
 * thread works, is refused at the default heap bound with a message naming the limit, what was
 * found and how to raise it, and the other thread never runs out of memory.
 */
class LoadHeapBoundIT {
  @TempDir Path dir;

  @Test
  void aFileOfTenMillionEmptyMapsIsRefusedAtTheDefaultBoundAndOtherThreadsKeepWorking() throws Exception {
    Path bomb = LoadBombs.emptyMaps(dir.resolve("maps.jl4j.zst"), 10_000_000);
    assertThat(Files.size(bomb)).isLessThan(8 << 10);
    List<String> out = runChild(bomb);
    String all = String.join("\n", out);
    assertThat(out).as(all).contains("BYSTANDER_OOMS 0");
    String refused = out.stream().filter(l -> l.startsWith("REFUSED ")).findFirst().orElse(null);
    assertThat(refused).as(all).isNotNull()
        .contains("io.joblib4j.CorruptFileException").contains(bomb.toString())
        .contains("LoadOptions.maxHeapBytes").contains("-Djoblib4j.load.maxHeapBytes")
        .containsPattern("over the limit of \\d+ bytes");
  }

  private static List<String> runChild(Path file) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        HeapBoundMain.class.getName(), file.toString())
        .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        lines.add(line);
      }
    }
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      lines.add("(killed after 120 s)");
    }
    return lines;
  }
}
