package io.joblib4j.hdfs.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Store contract on an object store with ABFS's rules: a create that must not overwrite is
 * decided at create, and leaves an empty file visible until the writer closes it. No ABFS emulator
 * runs here; these are the rules its documentation states (docs/stores.md, "Object stores").
 */
class AbfsRulesContractTest extends ObjectStoreContractTest {
  @Override
  protected Store newEmptyStore() throws Exception {
    return FakeObjectStore.openStore(dir, FakeObjectStore.Rules.ABFS);
  }

  /**
   * A writer killed between its manifest's create and its close leaves, on ABFS, an empty manifest
   * that every later create of the same name is refused on. It must read as no entry, and must not
   * keep the next writer from publishing.
   */
  @Test
  void anEmptyManifestAKilledWriterLeftIsNoEntryAndDoesNotBlockTheNextWriter() throws Exception {
    java.nio.file.Path entry = dir.resolve("bucket").resolve("f").resolve("killed");
    Files.createDirectories(entry);
    java.nio.file.Path manifest = Files.createFile(entry.resolve(Names.COMMIT));
    Files.setLastModifiedTime(manifest, java.nio.file.attribute.FileTime.from(
        java.time.Instant.now().minus(MarkerStore.ABANDONED_AFTER).minusSeconds(1)));
    assertThat(store.exists("f/killed")).isFalse();
    assertThat(store.list("")).noneMatch(f -> f.path().contains("killed"));
    assertThat(store.open("f/killed/output")).isEmpty();
    assertThat(store.publish("f/killed", List.of(EntryFile.of("metadata.json", "m".getBytes(UTF_8)),
        EntryFile.of("output", "value".getBytes(UTF_8))))).isEqualTo(Store.Publication.PUBLISHED);
    assertThat(read(store, "f/killed/output")).isEqualTo("value");
  }

  /** An empty manifest younger than that may be a live writer's, between its create and its close: kept. */
  @Test
  void anEmptyManifestBeingWrittenIsLeftToItsWriter() throws Exception {
    java.nio.file.Path entry = dir.resolve("bucket").resolve("f").resolve("writing");
    Files.createDirectories(entry);
    java.nio.file.Path manifest = Files.createFile(entry.resolve(Names.COMMIT));
    assertThat(store.publish("f/writing", List.of(EntryFile.of("output", "value".getBytes(UTF_8)))))
        .isEqualTo(Store.Publication.ALREADY_PRESENT);
    assertThat(manifest).exists().isEmptyFile();
    assertThat(store.exists("f/writing")).isFalse();
  }
}
