package io.joblib4j.hdfs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.internal.HadoopStoreOpener;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commit protocol on S3 with writers in JVMs of their own: two racing on one entry, and one
 * killed in the middle of each file it publishes. With S3A's conditional writes on and off.
 */
class S3CommitProtocolIT {
  @TempDir Path dir;

  @ParameterizedTest(name = "conditional writes: {0}")
  @ValueSource(booleans = {true, false})
  void ofTwoJvmsRacingOnOneEntryOnePublishesAndBothReadOneWholeValue(boolean conditional) throws Exception {
    S3Server.skipWhereAskingForConditionalWritesChangesNothing(conditional);
    List<String> results = race(S3Server.shared(), conditional);
    if (conditional) {
      // exactly one publishes; the other takes the winner's entry, without a warning or an error
      assertThat(results).containsExactlyInAnyOrder("RESULT PUBLISHED", "RESULT ALREADY_PRESENT");
    } else {
      // check-then-PUT: both may pass the check, and the manifest written last wins
      assertThat(results).allMatch(r -> r.equals("RESULT PUBLISHED") || r.equals("RESULT ALREADY_PRESENT"));
    }
  }

  /**
   * A server that ignores If-None-Match while S3A sends it (conditional writes on in the client):
   * every conditional PUT succeeds, so both racers may believe they published and the manifest
   * written last wins. Each race still leaves one writer's whole value, never a mix or a part.
   */
  @org.junit.jupiter.api.Test
  void ofTwoJvmsRacingAgainstAServerThatIgnoresIfNoneMatchReadersSeeOneWholeValue() throws Exception {
    S3Server.skipWhereAskingForConditionalWritesChangesNothing(true); // an S3A that never sends If-None-Match
    try (S3Server ignoring = S3Server.startIgnoringIfNoneMatch()) {
      for (int round = 0; round < 3; round++) {
        List<String> results = race(ignoring, true);
        assertThat(results).allMatch(r -> r.equals("RESULT PUBLISHED") || r.equals("RESULT ALREADY_PRESENT"));
      }
      assertThat(ignoring.ifNoneMatchDropped()).as("conditional PUTs whose If-None-Match the server never saw")
          .isGreaterThanOrEqualTo(3);
    }
  }

  /** Two writer JVMs released together on one entry; checks the value read after; their last lines. */
  private List<String> race(S3Server s3, boolean conditional) throws Exception {
    URI location = s3.newLocation("race");
    Path start = dir.resolve("start-" + java.util.UUID.randomUUID());
    List<Process> writers = new ArrayList<>();
    for (byte fill = 1; fill <= 2; fill++) {
      writers.add(writer(s3, location, conditional, "f/k", fill, start.toString(), "-", "w" + fill));
    }
    for (Process w : writers) {
      awaitReady(w);
    }
    Files.createFile(start);
    List<String> results = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      results.add(finish(writers.get(i), "w" + (i + 1)));
    }
    try (Store store = open(s3, location, conditional)) {
      byte[] output = read(store, "f/k/output");
      assertThat(output).hasSize(S3Writer.OUTPUT_BYTES);
      byte fill = output[0];
      for (byte b : output) {
        assertThat(b).isEqualTo(fill); // never a mix of the two writers' bytes
      }
      assertThat(new String(read(store, "f/k/metadata.json"), StandardCharsets.UTF_8)).isEqualTo("{\"fill\":" + fill + "}");
    }
    return results;
  }

  @ParameterizedTest(name = "killed while writing {0}")
  @ValueSource(strings = {"output", "metadata.json"})
  void aWriterKilledWhilePublishingLeavesNoEntryAndDoesNotBlockTheNext(String file) throws Exception {
    S3Server s3 = S3Server.shared();
    // asking for conditional writes where this S3A has none (3.3.x) would repeat the case without
    for (boolean conditional : s3.clientCreatesConditionally() ? new boolean[] {true, false} : new boolean[] {false}) {
      URI location = s3.newLocation("killed");
      Process killed = writer(s3, location, conditional, "f/k", (byte) 1, "-", file, "killed");
      assertThat(killed.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(killed.exitValue()).as("the writer halted in the middle of " + file).isEqualTo(3);
      try (Store store = open(s3, location, conditional)) {
        assertThat(store.exists("f/k/output")).isFalse();
        assertThat(store.open("f/k/metadata.json")).isEmpty();
        assertThat(store.list("")).noneMatch(f -> f.path().startsWith("f/k"));
      }
      // the next writer publishes at once: it is not told to wait for the dead one
      Process next = writer(s3, location, conditional, "f/k", (byte) 2, "-", "-", "next");
      assertThat(finish(next, "next")).isEqualTo("RESULT PUBLISHED");
      try (Store store = open(s3, location, conditional)) {
        assertThat(read(store, "f/k/output")).hasSize(S3Writer.OUTPUT_BYTES).startsWith(2, 2, 2);
      }
    }
  }

  @ParameterizedTest(name = "conditional writes: {0}")
  @ValueSource(booleans = {true, false})
  void aClaimAnOlderWriterLeftDoesNotBlockTheEntry(boolean conditional) throws Exception {
    S3Server.skipWhereAskingForConditionalWritesChangesNothing(conditional);
    S3Server s3 = S3Server.shared();
    URI location = s3.newLocation("stale-claim");
    // what a writer of the earlier protocol left when killed holding its claim: the claim, no commit
    try (FileSystem fs = FileSystem.newInstance(location, s3.conf(conditional));
        FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(location + "/f/k/.jl4j-claim"), false)) {
      out.write("dead-writer".getBytes(StandardCharsets.UTF_8));
    }
    try (Store store = HadoopStoreOpener.open(location, s3.conf(conditional),
        Map.of("localCacheDir", dir.resolve("copies").toString(), "publishWait", "PT10S"))) {
      assertThat(store.publish("f/k", List.of(io.joblib4j.spi.EntryFile.of("output", "v".getBytes()))))
          .isEqualTo(Store.Publication.PUBLISHED);
      assertThat(new String(read(store, "f/k/output"), StandardCharsets.UTF_8)).isEqualTo("v");
    }
  }

  private Store open(S3Server s3, URI location, boolean conditional) throws IOException {
    return HadoopStoreOpener.open(location, s3.conf(conditional), Map.of("localCacheDir", dir.resolve("copies").toString()));
  }

  private static byte[] read(Store store, String path) throws IOException {
    try (InputStream in = store.open(path).orElseThrow(() -> new AssertionError(path + " is absent"))) {
      return in.readAllBytes();
    }
  }

  private Process writer(S3Server s3, URI location, boolean conditional, String entry, byte fill, String start,
      String haltIn, String name) throws IOException {
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), S3Writer.class.getName(),
        s3.endpoint().toString(), location.toString(), Boolean.toString(conditional), entry, Byte.toString(fill), start,
        haltIn);
    return new ProcessBuilder(cmd).redirectError(dir.resolve(name + ".err").toFile()).start();
  }

  private static void awaitReady(Process p) throws IOException {
    String line = readLine(p);
    assertThat(line).as("the writer's first line").isEqualTo("READY");
  }

  private String finish(Process p, String name) throws Exception {
    String last = null;
    for (String line; (line = readLine(p)) != null; ) {
      last = line;
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("exit of " + name + ": " + Files.readString(dir.resolve(name + ".err"))).isZero();
    // no warning from the store either
    assertThat(Files.readString(dir.resolve(name + ".err"))).doesNotContain("StoreTrouble", "Unable to cache");
    return last;
  }

  private static String readLine(Process p) throws IOException {
    InputStream in = p.getInputStream();
    StringBuilder b = new StringBuilder();
    for (int c; (c = in.read()) >= 0; ) {
      if (c == '\n') {
        return b.toString();
      }
      b.append((char) c);
    }
    return b.length() == 0 ? null : b.toString();
  }
}
