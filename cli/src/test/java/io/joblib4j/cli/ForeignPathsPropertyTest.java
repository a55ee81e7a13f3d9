package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.CacheLimits;
import io.joblib4j.Memory;
import io.joblib4j.spark.stages.StageCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random locations mixing Memory entries, stage entries, the user's files, folders named like
 * function folders, entries and stages but without their records, and symbolic links; one
 * destructive command or API call each. Afterwards every path that is not joblib4j's is byte for
 * byte as it was, and nothing followed a link. {@code -Djoblib4j.property.locations=N} changes the
 * count (10,000 by default, RELIABILITY.md); a failure names its seed and location number.
 */
class ForeignPathsPropertyTest {
  private static final int LOCATIONS = Integer.getInteger("joblib4j.property.locations", 10_000);
  private static final HexFormat HEX = HexFormat.of();
  @TempDir static Path template;
  @TempDir Path tempDir;

  /** What a destructive command or call does to a location. */
  private record Action(String name, Consumer<Path> run) {}

  private static final List<Action> ACTIONS = List.of(
      cli("rm function", at -> new String[] {"rm", at, "Fns.square"}),
      cli("rm user's folder name", at -> new String[] {"rm", at, "exports-20240101abcd"}),
      cli("prune --max-age 0s", at -> new String[] {"prune", at, "--max-age", "0s"}),
      cli("prune --max-items 1", at -> new String[] {"prune", at, "--max-items", "1"}),
      cli("prune --max-size 1", at -> new String[] {"prune", at, "--max-size", "1"}),
      cli("verify --repair", at -> new String[] {"verify", at, "--repair"}),
      cli("stages rm", at -> new String[] {"stages", "rm", at, "Pipeline.clean"}),
      cli("stages clear", at -> new String[] {"stages", "clear", at}),
      cli("stages clear user's folder", at -> new String[] {"stages", "clear", at, "old-run"}),
      cli("stages prune --max-age 0s", at -> new String[] {"stages", "prune", at, "--max-age", "0s"}),
      cli("stages sweep --older-than 0s", at -> new String[] {"stages", "sweep", at, "--older-than", "0s"}),
      api("Memory.clear", at -> memory(at).clear()),
      api("Memory.prune", at -> memory(at).prune(CacheLimits.none().age(Duration.ZERO), false)),
      api("Memory.reduceSize", at -> memory(at).reduceSize(1L, 1, Duration.ZERO)),
      api("Memory.verify(true)", at -> memory(at).verify(true)),
      api("StageCatalog.clearAll", at -> stages(at, StageCatalog::clearAll)),
      api("StageCatalog.prune", at -> stages(at, c -> c.prune(CacheLimits.none().age(Duration.ZERO), false))),
      api("StageCatalog.sweep", at -> stages(at, c -> c.sweep(Duration.ZERO))));

  private static Action cli(String name, java.util.function.Function<String, String[]> args) {
    return new Action(name, at -> Run.of(args.apply(at.toString())));
  }

  private static Action api(String name, Consumer<Path> call) {
    return new Action(name, at -> {
      try {
        call.accept(at);
      } catch (RuntimeException refused) {
        // a refusal (a path that is not Memory's) is an answer too: what matters is what is left
      }
    });
  }

  private static Memory memory(Path at) {
    return Memory.builder(at).verbose(0).build();
  }

  private static void stages(Path at, Consumer<StageCatalog> call) {
    try (StageCatalog c = StageCatalog.open(at.toString())) {
      call.accept(c);
    }
  }

  @BeforeAll
  static void writeTemplate() {
    Caches.fill(Caches.at(template.resolve("cache")));
  }

  @Test
  void noCommandOrCallChangesAPathThatIsNotJoblib4js() throws Exception {
    long seed = Long.getLong("joblib4j.property.seed", System.nanoTime());
    // in memory where the machine has it: each location is written, changed and deleted, 10,000 times
    Path shm = Path.of("/dev/shm");
    Path dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "joblib4j-foreign") : tempDir;
    try {
      run(seed, dir);
    } finally {
      if (!dir.equals(tempDir)) {
        delete(dir);
      }
    }
  }

  /**
   * Locations are independent, each from a {@link Random} of its own seeded from the run's seed and
   * its number, so they are checked by a thread per core (a location's CLI call spends most of its
   * time building picocli's model, on the CPU) and a failure reproduces from its seed alone.
   */
  private void run(long seed, Path dir) throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("target.txt"), "the user's file a link points to\n");
    Stats stats = new Stats();
    AtomicInteger next = new AtomicInteger();
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(pool.submit(() -> {
          for (int i; (i = next.getAndIncrement()) < LOCATIONS; ) {
            try {
              checkLocation(seed, i, dir, outside, stats);
            } catch (Throwable failed) {
              next.set(LOCATIONS); // the others stop at their next location
              throw failed;
            }
          }
          return null;
        }));
      }
      for (Future<Void> w : workers) {
        try {
          w.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Error error) {
            throw error;
          }
          throw (Exception) e.getCause();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.println("ForeignPathsPropertyTest: " + LOCATIONS + " locations on " + threads + " threads (seed " + seed
        + "): " + stats.runs);
    StringBuilder ms = new StringBuilder();
    stats.nanos.forEach((name, n) -> ms.append(name).append('=').append(n / 1_000_000 / stats.runs.get(name)).append(' '));
    System.out.println("ForeignPathsPropertyTest: ms per location: generating " + stats.generating.get() / 1_000_000
        / LOCATIONS + ", checking " + stats.checking.get() / 1_000_000 / LOCATIONS + "; actions " + ms);
  }

  /** What the locations took, by action, from every thread. */
  private static final class Stats {
    final Map<String, Integer> runs = new ConcurrentSkipListMap<>();
    final Map<String, Long> nanos = new ConcurrentSkipListMap<>();
    final AtomicLong generating = new AtomicLong();
    final AtomicLong checking = new AtomicLong();
  }

  private static void checkLocation(long seed, int i, Path dir, Path outside, Stats stats) throws IOException {
    Random random = new Random(seed + i * 0x9E3779B97F4A7C15L);
    Path at = dir.resolve("l" + i);
    long t0 = System.nanoTime();
    List<Path> foreign = generate(random, at, outside);
    Action action = ACTIONS.get(random.nextInt(ACTIONS.size()));
    Map<String, String> before = snapshot(at, foreign);
    Map<String, String> outsideBefore = snapshot(outside, List.of(outside));
    long t1 = System.nanoTime();
    action.run().accept(at);
    long t2 = System.nanoTime();
    assertThat(snapshot(at, foreign)).as("seed %d, location %d: %s changed what is not joblib4j's", seed, i,
        action.name()).isEqualTo(before);
    assertThat(snapshot(outside, List.of(outside))).as("seed %d, location %d: %s followed a link", seed, i,
        action.name()).isEqualTo(outsideBefore);
    stats.runs.merge(action.name(), 1, Integer::sum);
    delete(at);
    stats.generating.addAndGet(t1 - t0);
    stats.nanos.merge(action.name(), t2 - t1, Long::sum);
    stats.checking.addAndGet(System.nanoTime() - t2);
  }

  /** Fills {@code at} with a random mix; returns the paths that are the user's. */
  private static List<Path> generate(Random r, Path at, Path outside) throws IOException {
    Files.createDirectories(at);
    List<Path> foreign = new ArrayList<>();
    List<Path> functionFolders = new ArrayList<>();
    if (r.nextInt(10) < 7) {
      copy(template.resolve("cache"), at);
      try (Stream<Path> s = Files.list(at)) {
        s.filter(p -> Files.isDirectory(p) && !p.getFileName().toString().startsWith(".")).forEach(functionFolders::add);
      }
    } else if (r.nextBoolean()) {
      foreign.add(write(at.resolve(".gitignore"), "build/\n"));
    }
    if (r.nextInt(10) < 4) {
      writeStageEntry(at, "Pipeline.clean-" + hex(r, 6), r);
    }
    int n = 1 + r.nextInt(6);
    for (int k = 0; k < n; k++) {
      switch (r.nextInt(9)) {
        case 0 -> { // a folder named like a function's, without function.json, maybe with key-shaped folders
          Path f = at.resolve("exports-" + hex(r, 6));
          foreign.add(f);
          write(f.resolve("report.csv"), "mine " + r.nextInt());
          if (r.nextBoolean()) {
            write(f.resolve(hex(r, 16)).resolve(r.nextBoolean() ? "output.jl4j" : "x.csv"), "x" + r.nextInt());
          }
        }
        case 1 -> { // a key-shaped folder without metadata.json inside a real function folder
          if (!functionFolders.isEmpty()) {
            Path e = functionFolders.get(r.nextInt(functionFolders.size())).resolve(hex(r, 16));
            foreign.add(e);
            write(e.resolve(r.nextBoolean() ? "output.jl4j" : "notes.txt"), "n" + r.nextInt());
          }
        }
        case 2 -> foreign.add(write(at.resolve("notes-" + r.nextInt(1000) + ".txt"), "mine " + r.nextInt()));
        case 3 -> { // a file of the user's inside a function folder
          if (!functionFolders.isEmpty()) {
            foreign.add(write(functionFolders.get(r.nextInt(functionFolders.size())).resolve("notes.txt"), "n"));
          }
        }
        case 4 -> { // a stages folder of the user's
          Path old = at.resolve("stages/old-run");
          foreign.add(old);
          write(old.resolve("result.csv"), "data " + r.nextInt());
        }
        case 5 -> { // a folder named like a stage's, without entries, holding what looks like a data attempt
          Path stage = at.resolve("stages/Pipeline.other-" + hex(r, 6));
          foreign.add(stage);
          write(stage.resolve("data").resolve(hex(r, 16) + "." + UUID.randomUUID()).resolve("part-0.csv"), "d");
        }
        case 6 -> { // a link to the user's file outside, at the root or in a function folder
          Path parent = functionFolders.isEmpty() || r.nextBoolean() ? at
              : functionFolders.get(r.nextInt(functionFolders.size()));
          Path link = parent.resolve("link-" + r.nextInt(1000));
          if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
            foreign.add(Files.createSymbolicLink(link, outside.resolve("target.txt")));
          }
        }
        case 7 -> { // a link to the outside folder, named like a function folder
          Path link = at.resolve("linked-" + hex(r, 6));
          foreign.add(Files.createSymbolicLink(link, outside));
        }
        default -> { // a folder named like Memory's bookkeeping's neighbour, the user's
          foreign.add(write(at.resolve("data/" + hex(r, 16) + "/metadata.json"), "{\"mine\": true}"));
        }
      }
    }
    return foreign;
  }

  private static void writeStageEntry(Path at, String stage, Random r) throws IOException {
    String key = hex(r, 16);
    String data = key + "." + UUID.randomUUID();
    write(at.resolve("stages").resolve(stage).resolve("data").resolve(data).resolve("part-0.parquet"), "PAR1");
    write(at.resolve("stages").resolve(stage).resolve(key).resolve("entry.json"), """
        {"format": 1, "stage": "%s", "name": "Pipeline.clean", "identity": "x", "key": "%s",
         "created": "2026-01-01T00:00:00Z", "data": "%s", "storage": {"format": "parquet"}, "schema": "{}",
         "rows": 1, "bytes": 4, "files": [{"path": "part-0.parquet", "bytes": 4}]}
        """.formatted(stage, key, data));
  }

  private static String hex(Random r, int bytes) {
    byte[] b = new byte[bytes];
    r.nextBytes(b);
    return HEX.formatHex(b);
  }

  private static Path write(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return file;
  }

  /** Every path under each of {@code roots} (links not followed): its kind and content. */
  private static Map<String, String> snapshot(Path at, List<Path> roots) {
    Map<String, String> out = new TreeMap<>();
    for (Path root : roots) {
      if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
        out.put(at.relativize(root).toString(), "missing");
        continue;
      }
      try (Stream<Path> s = Files.walk(root)) {
        for (Path p : s.toList()) {
          BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          String what = a.isSymbolicLink() ? "link " + Files.readSymbolicLink(p)
              : a.isDirectory() ? "dir" : "file " + Arrays.hashCode(Files.readAllBytes(p)) + " " + a.size();
          out.put(at.relativize(p).toString(), what);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

}
