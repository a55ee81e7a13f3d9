package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Loads in progress at once share one heap budget (issue 19, item 2): each load's own limit keeps
 * one file from filling the heap, and the shared one keeps several from doing it together.
 */
class LoadsInProgressTest {
  private static final int MAPS = 300_000; // about 16 MB estimated: some 54 bytes per empty map in a list
  private static final long BUDGET = 24L << 20;

  /** Holds its load in the middle of decoding (after the maps before it) until released. */
  static final class Gate implements Serializable {
    private static final long serialVersionUID = 1L;
    static CountDownLatch reached;
    static CountDownLatch release;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException, InterruptedException {
      in.defaultReadObject();
      reached.countDown();
      release.await();
    }
  }

  private long budgetBefore;

  @BeforeEach
  void lowerTheBudget() {
    budgetBefore = LoadsInProgress.budget;
    LoadsInProgress.budget = BUDGET;
    Gate.reached = new CountDownLatch(1);
    Gate.release = new CountDownLatch(1);
  }

  @AfterEach
  void restoreTheBudget() {
    Gate.release.countDown();
    LoadsInProgress.budget = budgetBefore;
  }

  private static byte[] manyMaps(Object last) {
    List<Object> value = new ArrayList<>();
    for (int i = 0; i < MAPS; i++) {
      value.add(new HashMap<>());
    }
    if (last != null) {
      value.add(last);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Persistence.dump(value, out, null, 0);
    return out.toByteArray();
  }

  private static Object load(byte[] file, long maxHeapBytes) {
    LoadOptions options = LoadOptions.builder().allow(Gate.class).maxHeapBytes(maxHeapBytes).build();
    return Persistence.load(new ByteArrayInputStream(file), options);
  }

  @Test
  void twoLoadsThatFitEachButNotTogetherFailOneCleanlyAndTheOtherLoads() throws Exception {
    byte[] held = manyMaps(new Gate());
    byte[] second = manyMaps(null);
    long perLoad = 20L << 20; // each fits its own limit
    CompletableFuture<Object> first = CompletableFuture.supplyAsync(() -> load(held, perLoad));
    assertThat(Gate.reached.await(60, TimeUnit.SECONDS)).as("the first load reached its gate").isTrue();
    assertThat(LoadsInProgress.reserved()).isGreaterThan(MAPS * 50L);

    assertThatThrownBy(() -> load(second, perLoad))
        .isExactlyInstanceOf(JoblibException.class) // not a CorruptFileException: Memory must not delete the entry
        .isNotInstanceOf(CorruptFileException.class)
        .hasMessageContaining("the loads in progress in this JVM would together build more heap")
        .hasMessageContaining("over the limit of " + BUDGET + " bytes")
        .hasMessageContaining("-D" + LoadOptions.MAX_HEAP_BYTES_PROPERTY);

    Gate.release.countDown();
    assertThat((List<?>) first.get(60, TimeUnit.SECONDS)).hasSize(MAPS + 1);
    assertThat(LoadsInProgress.reserved()).as("a finished load gives its reservation back").isZero();
    assertThat((List<?>) load(second, perLoad)).as("alone, the second load fits").hasSize(MAPS);
    assertThat(LoadsInProgress.reserved()).isZero();
  }

  @Test
  void aLoadAloneMayBuildUpToItsOwnLimitAboveTheSharedBudget() {
    LoadsInProgress.budget = 4L << 20;
    assertThat((List<?>) load(manyMaps(null), 64L << 20)).hasSize(MAPS);
    assertThat(LoadsInProgress.reserved()).isZero();
  }

  @Test
  void aLoadThatFailsGivesItsReservationBack() {
    assertThatThrownBy(() -> load(manyMaps(null), 8L << 20)).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("LoadOptions.maxHeapBytes");
    assertThat(LoadsInProgress.reserved()).isZero();
  }
}
