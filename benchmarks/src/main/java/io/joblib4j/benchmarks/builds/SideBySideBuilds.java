package io.joblib4j.benchmarks.builds;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Times two builds of engine-api side by side: hashing a 1,000,000-entry map and a list of 300,000
 * small lists, a Memory hit on a small result, and a load of a 128 MiB double[] dumped with each
 * codec. Rounds alternate which build goes first; the first round is warm-up. Prints medians and
 * minima per build and their ratio (after / before).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.joblib4j.benchmarks.builds.SideBySideBuilds \
 *     BEFORE_CLASSES AFTER_CLASSES DEPENDENCY_CLASSPATH SCRATCH_DIR ROUNDS [codec,...]
 * </pre>
 *
 * BEFORE/AFTER_CLASSES are each build's {@code engine-api/target/classes}; DEPENDENCY_CLASSPATH is
 * engine-api's dependencies ({@code mvn -q -pl engine-api dependency:build-classpath
 * -Dmdep.outputFile=deps.txt}).
 */
public final class SideBySideBuilds {
  private SideBySideBuilds() {}

  public static void main(String[] args) throws Exception {
    ClassLoader deps = new URLClassLoader(urls(args[2].split(java.io.File.pathSeparator)),
        ClassLoader.getPlatformClassLoader());
    Class<?>[] probe = {probeIn(args[0], deps), probeIn(args[1], deps)};
    Path scratch = Files.createTempDirectory(Path.of(args[3]), "side-by-side");
    try {
      run(probe, scratch, args);
    } finally {
      try (java.util.stream.Stream<Path> files = Files.walk(scratch)) {
        for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  private static void run(Class<?>[] probe, Path scratch, String[] args) throws IOException {
    int rounds = Integer.parseInt(args[4]);
    String[] codecs = args.length > 5 ? args[5].split(",") : new String[] {"gzip", "zlib", "lz4", "zstd"};

    Map<String, Integer> map = new HashMap<>();
    for (int i = 0; i < 1_000_000; i++) {
      map.put("key-" + i, i);
    }
    List<List<Integer>> lists = new ArrayList<>();
    for (int i = 0; i < 300_000; i++) {
      lists.add(List.of(i, i + 1));
    }
    double[] data = new double[16 << 20];
    Random r = new Random(1);
    for (int i = 0; i < data.length; i++) {
      data[i] = i % 7 == 0 ? r.nextDouble() : i % 1000; // partly compressible
    }
    Object[] hits = new Object[2];
    for (int b = 0; b < 2; b++) {
      hits[b] = call(probe[b], "memoized", Files.createDirectories(scratch.resolve("memory" + b)));
    }
    List<String> names = new ArrayList<>(List.of("hash Map<String,Integer> 1M entries (ms)",
        "hash 300k List.of(i, i+1) in a list (ms)", "Memory hit, small result (us, mean of 20000)"));
    for (String c : codecs) {
      call(probe[1], "dump", data, scratch.resolve("data." + c), c);
      names.add("load 128 MiB double[] " + c + " (ms)");
    }
    long[][][] t = new long[names.size()][2][rounds];
    for (int round = 0; round < rounds; round++) {
      for (int k = 0; k < 2; k++) {
        int b = (k + round) % 2;
        t[0][b][round] = timed(() -> call(probe[b], "hash", map)) / 1_000_000;
        t[1][b][round] = timed(() -> call(probe[b], "hash", lists)) / 1_000_000;
        for (int i = 0; i < 2000; i++) {
          call(probe[b], "hit", hits[b]);
        }
        t[2][b][round] = timed(() -> {
          for (int i = 0; i < 20_000; i++) {
            call(probe[b], "hit", hits[b]);
          }
        }) / 20_000 / 1000;
        for (int c = 0; c < codecs.length; c++) {
          Path file = scratch.resolve("data." + codecs[c]);
          t[3 + c][b][round] = timed(() -> call(probe[b], "load", file)) / 1_000_000;
        }
      }
    }
    for (int m = 0; m < names.size(); m++) {
      long[] before = Arrays.copyOfRange(t[m][0], 1, rounds);
      long[] after = Arrays.copyOfRange(t[m][1], 1, rounds);
      Arrays.sort(before);
      Arrays.sort(after);
      System.out.printf("%-48s before %6d (min %6d)  after %6d (min %6d)  ratio %.2f (of minima %.2f)%n", names.get(m),
          before[before.length / 2], before[0], after[after.length / 2], after[0],
          after[after.length / 2] / (double) before[before.length / 2], after[0] / (double) before[0]);
    }
  }

  /** The probe class defined in a loader of its own over one build's classes. */
  private static Class<?> probeIn(String build, ClassLoader deps) throws Exception {
    byte[] bytes;
    try (InputStream in = SideBySideBuilds.class.getResourceAsStream("Probe.class")) {
      bytes = in.readAllBytes();
    }
    ClassLoader loader = new URLClassLoader(urls(build), deps) {
      @Override
      protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (name.equals(Probe.class.getName())) {
          return defineClass(name, bytes, 0, bytes.length);
        }
        return super.findClass(name);
      }
    };
    return loader.loadClass(Probe.class.getName());
  }

  private static URL[] urls(String... paths) {
    return Arrays.stream(paths).filter(p -> !p.isBlank()).map(p -> {
      try {
        return Path.of(p).toUri().toURL();
      } catch (MalformedURLException e) {
        throw new UncheckedIOException(e);
      }
    }).toArray(URL[]::new);
  }

  private static Object call(Class<?> probe, String method, Object... args) {
    try {
      for (Method m : probe.getMethods()) {
        if (m.getName().equals(method) && m.getParameterCount() == args.length) {
          return m.invoke(null, args);
        }
      }
      throw new IllegalArgumentException(method);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e.getCause() != null ? e.getCause() : e);
    }
  }

  private static long timed(Runnable body) {
    long t0 = System.nanoTime();
    body.run();
    return System.nanoTime() - t0;
  }
}
