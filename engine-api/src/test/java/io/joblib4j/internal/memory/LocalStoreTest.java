package io.joblib4j.internal.memory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreContractTest;
import io.joblib4j.spi.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStoreTest extends StoreContractTest {
  @TempDir Path dir;

  @Override
  protected Store newEmptyStore() throws IOException {
    return new LocalStore(dir.resolve("cache"));
  }

  @Override
  protected void leaveDeadWritersTemporary(String entry, Duration age) throws IOException {
    Path target = ((LocalStore) store).root().resolve(entry);
    Path temp = target.resolveSibling(LocalStore.TEMP_PREFIX + target.getFileName() + "-dead");
    Files.createDirectories(temp);
    Files.writeString(temp.resolve("output"), "half");
    Files.setLastModifiedTime(temp, FileTime.from(Instant.now().minus(age)));
  }

  @Test
  void plainPathsAndFileUrisOpenTheLocalStore() {
    try (Store a = Stores.open(dir.resolve("p").toString(), Map.of());
        Store b = Stores.open(dir.resolve("u").toUri().toString(), Map.of())) {
      assertThat(a).isInstanceOf(LocalStore.class);
      assertThat(b.location().getScheme()).isEqualTo("file");
    }
  }

  @Test
  void anUnknownSchemeSaysWhichArtifactServesIt() {
    assertThatThrownBy(() -> Stores.open("hdfs://namenode/cache", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("joblib4j-hdfs-store");
    assertThatThrownBy(() -> Stores.open("weird://x", Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no store for \"weird:\"");
  }

  @Test
  void aSymbolicLinkPlantedInTheCacheIsNeverFollowed(@TempDir Path outside) throws Exception {
    LocalStore local = (LocalStore) store;
    Files.writeString(outside.resolve("secret"), "do not read");
    Files.createSymbolicLink(local.root().resolve("f"), outside);
    assertThatThrownBy(() -> store.open("f/secret")).isInstanceOf(IOException.class).hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> store.publish("f/k", List.of(EntryFile.of("output", "x".getBytes(UTF_8)))))
        .isInstanceOf(IOException.class);
    store.delete(""); // removes the link, not what it points to
    assertThat(outside.resolve("secret")).exists();
    assertThat(Files.list(local.root())).isEmpty();
  }
}
