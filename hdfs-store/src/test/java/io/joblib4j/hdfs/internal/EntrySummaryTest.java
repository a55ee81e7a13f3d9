package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EntrySummaryTest {
  private static final byte[] MANIFEST = "{\"publication\":\"a1\"}".getBytes(StandardCharsets.UTF_8);

  private static String etagOf(byte[] bytes) throws Exception {
    return "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes)) + "\"";
  }

  private static Map<String, Long> sizes() {
    Map<String, Long> sizes = new LinkedHashMap<>();
    sizes.put("output.jl4j", 123_456_789L);
    sizes.put("metadata.json", 0L);
    return sizes;
  }

  @Test
  void aSummaryGivesItsNamesAndSizesForTheManifestItWasWrittenFor() throws Exception {
    String name = EntrySummary.name(MANIFEST, sizes());
    assertThat(name).startsWith(EntrySummary.PREFIX);
    assertThat(Names.reserved(name)).isTrue();
    assertThat(EntrySummary.sizesFor(name, etagOf(MANIFEST))).containsExactlyEntriesOf(sizes());
  }

  @Test
  void aSummaryOfAnotherManifestIsNotTrusted() throws Exception {
    String name = EntrySummary.name(MANIFEST, sizes());
    byte[] republished = "{\"publication\":\"b2\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(EntrySummary.sizesFor(name, etagOf(republished))).isNull();
    assertThat(EntrySummary.sizesFor(name, null)).isNull();
    assertThat(EntrySummary.sizesFor(Names.COMMIT, etagOf(MANIFEST))).isNull();
  }

  @Test
  void namesASummaryCannotCarryAreLeftToTheManifest() {
    assertThat(EntrySummary.name(MANIFEST, Map.of())).isNull();
    assertThat(EntrySummary.name(MANIFEST, Map.of("x".repeat(1_000), 1L))).isNull();
    assertThat(EntrySummary.name(MANIFEST, Map.of("a/b", 1L))).isNull();
  }

  @Test
  void anUnreadablePayloadIsIgnored() throws Exception {
    String name = EntrySummary.name(MANIFEST, sizes());
    String broken = name.substring(0, name.lastIndexOf('.') + 1) + "!!!";
    assertThat(EntrySummary.sizesFor(broken, etagOf(MANIFEST))).isNull();
  }
}
