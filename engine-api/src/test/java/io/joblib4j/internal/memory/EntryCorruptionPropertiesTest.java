package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.spi.support.Warnings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Any single-byte flip and any truncation of a stored result is detected and recomputed — never
 * served as a wrong value (reliability matrix row 13).
 */
class EntryCorruptionPropertiesTest {
  static final AtomicInteger CALLS = new AtomicInteger();
  private Path dir;
  private Memory memory;
  private byte[] pristine;
  private Path output;

  public static List<Long> sequence(int n) {
    CALLS.incrementAndGet();
    Long[] out = new Long[n];
    for (int i = 0; i < n; i++) {
      out[i] = (long) i * i;
    }
    return Arrays.asList(out);
  }

  @BeforeProperty
  void storeOneEntry() throws IOException {
    Path shm = Path.of("/dev/shm"); // no fsync cost: this is about detection, not durability
    dir = Files.isWritable(shm) ? Files.createTempDirectory(shm, "joblib4j-corruption")
        : Files.createTempDirectory("joblib4j-corruption");
    memory = Memory.builder(dir).verbose(0).build();
    memory.cache(EntryCorruptionPropertiesTest::sequence).apply(300);
    try (var files = Files.walk(dir)) {
      output = files.filter(p -> p.getFileName().toString().equals("output.jl4j")).findFirst().orElseThrow();
    }
    pristine = Files.readAllBytes(output);
  }

  @AfterProperty
  void removeStore() throws IOException {
    LocalStore.deleteTree(dir);
  }

  private void replaceOutput(byte[] content) throws IOException {
    Path tmp = output.resolveSibling("tmp");
    Files.createDirectories(output.getParent());
    Files.write(tmp, content);
    Files.move(tmp, output, StandardCopyOption.REPLACE_EXISTING);
  }

  private void assertServedCorrectly() {
    Runnable remove = Warnings.addHook((s, m) -> { });
    try {
      MemoizedFn1<Integer, List<Long>> f = memory.cache(EntryCorruptionPropertiesTest::sequence);
      assertThat(f.apply(300)).isEqualTo(sequence(300));
    } finally {
      remove.run();
    }
  }

  @Property(tries = 300)
  void everySingleByteFlipIsDetected(@ForAll @IntRange(min = 0, max = 100_000) int where,
      @ForAll @IntRange(min = 1, max = 255) int mask) throws IOException {
    byte[] bytes = pristine.clone();
    bytes[where % bytes.length] ^= (byte) mask;
    replaceOutput(bytes);
    assertServedCorrectly();
    replaceOutput(pristine);
  }

  @Property(tries = 200)
  void everyTruncationIsDetected(@ForAll @IntRange(min = 0, max = 100_000) int keep) throws IOException {
    replaceOutput(Arrays.copyOf(pristine, keep % pristine.length));
    assertServedCorrectly();
    replaceOutput(pristine);
  }
}
