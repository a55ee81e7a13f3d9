package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.Joblib;
import io.joblib4j.LoadOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a load builds is bounded by {@link LoadOptions#maxHeapBytes()} in every codec: the data
 * codec, Kryo and Java serialization (issue 19.2; {@link LoadHeapBoundIT} shows it in a 256 MiB JVM
 * at the default limit).
 */
class HeapBudgetTest {
  private static final LoadOptions EIGHT_MIB = LoadOptions.builder().trusted().maxHeapBytes(8 << 20).build();

  @TempDir Path dir;

  /** Not Serializable: written by Kryo. */
  static final class KryoHolder {
    List<Object> items = new ArrayList<>();
  }

  /** Serializable, but not data the codec knows: written by Java serialization. */
  static final class JavaHolder implements Serializable {
    private static final long serialVersionUID = 1L;
    ArrayList<Object> items = new ArrayList<>();
  }

  private static List<Object> emptyMaps(int n) {
    List<Object> l = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      l.add(new HashMap<>());
    }
    return l;
  }

  private static byte[] dump(Object v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(v, out);
    return out.toByteArray();
  }

  @Test
  void aZstdFileOfManyEmptyMapsIsRefusedAtTheLimitNamingItAndHowToRaiseIt() throws Exception {
    Path bomb = LoadBombs.emptyMaps(dir.resolve("maps.jl4j.zst"), 200_000);
    assertThatThrownBy(() -> Joblib.load(bomb, EIGHT_MIB)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(bomb.toString()).hasMessageContaining("over the limit of 8388608 bytes")
        .hasMessageContaining("LoadOptions.builder().maxHeapBytes(")
        .hasMessageContaining("-Djoblib4j.load.maxHeapBytes=");
    List<?> all = Joblib.load(bomb, LoadOptions.builder().maxHeapBytes(256 << 20).build());
    assertThat(all).hasSize(200_000);
  }

  @Test
  void kryoAndJavaSerializedPayloadsAreChargedForWhatTheyBuild() {
    KryoHolder k = new KryoHolder();
    k.items.addAll(emptyMaps(200_000));
    byte[] kryo = dump(k);
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(kryo), EIGHT_MIB))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("over the limit of 8388608 bytes");
    JavaHolder j = new JavaHolder();
    j.items.addAll(emptyMaps(200_000));
    byte[] java = dump(j);
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(java), EIGHT_MIB))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("over the limit of 8388608 bytes");
    assertThat(((JavaHolder) Joblib.load(new ByteArrayInputStream(java), LoadOptions.trusted())).items)
        .hasSize(200_000);
  }

  @Test
  void arraysCountByTheirBytesAndMappedOnesDoNot() {
    byte[] big = dump(Map.of("a", new double[2 << 20]));
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(big), EIGHT_MIB))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("over the limit");
    Path file = dir.resolve("nd.jl4j");
    Joblib.dump(io.joblib4j.array.NDArray.zeros(io.joblib4j.array.DType.FLOAT64, 2 << 20), file);
    assertThatThrownBy(() -> Joblib.load(file, EIGHT_MIB)).isInstanceOf(CorruptFileException.class);
    io.joblib4j.array.NDArray mapped = Joblib.load(file, EIGHT_MIB.toBuilder()
        .mmapMode(io.joblib4j.MmapMode.READ_ONLY).build());
    assertThat(mapped.size()).isEqualTo(2 << 20);
  }

  @Test
  void theDefaultsAreHalfTheHeap() {
    // maxMemory() moves a little with the collector's survivor sizing: half of it when defaults() was made
    long half = Runtime.getRuntime().maxMemory() / 2;
    assertThat(LoadOptions.defaults().maxHeapBytes()).isBetween(half * 9 / 10, half * 11 / 10);
    assertThat(LoadOptions.defaults().maxDecompressedBytes()).isEqualTo(LoadOptions.defaults().maxHeapBytes());
  }
}
