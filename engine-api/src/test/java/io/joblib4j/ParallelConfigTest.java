package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.testing.SerializingBackend;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ParallelConfigTest {

  /** The backend a default Parallel resolves to right now, and its job count. */
  static String resolved() {
    try (Parallel p = Parallel.builder().build()) {
      String thread = p.run(Stream.of(delayed(() -> Thread.currentThread().getName()))).get(0);
      return p.effectiveNJobs() + "@" + (thread.contains("threads") ? "threads"
          : thread.contains("serializing") ? "serializing" : "caller");
    }
  }

  /** joblib's test_backend_context_manager. */
  @Test
  void setsTheBackendAndJobsOfCallsInsideTheScopeAndRestoresThemAfter() {
    assertThat(resolved()).isEqualTo("1@caller");
    try (ParallelConfig.Scope s = ParallelConfig.backend("threads").nJobs(3).apply()) {
      assertThat(resolved()).isEqualTo("3@threads");
      assertThat(ParallelConfig.current().nJobs()).contains(3);
      assertThat(ParallelConfig.current().backendName()).contains("threads");
    }
    assertThat(resolved()).isEqualTo("1@caller");
    assertThat(ParallelConfig.current().nJobs()).isEmpty();
  }

  /** joblib's test_parallel_config_nested. */
  @Test
  void nestedScopesInheritAndOverride() {
    try (ParallelConfig.Scope outer = ParallelConfig.backend("serializing").nJobs(2).verbose(0).apply()) {
      try (ParallelConfig.Scope inner = ParallelConfig.nJobs(4).apply()) {
        assertThat(resolved()).isEqualTo("4@serializing");
        assertThat(ParallelConfig.current().verbose()).contains(0);
      }
      assertThat(resolved()).isEqualTo("2@serializing");
    }
  }

  /** joblib's test_parallel_config_params_explicit_set: explicit builder values win. */
  @Test
  void explicitBuilderValuesBeatTheScope() {
    try (ParallelConfig.Scope s = ParallelConfig.backend("serializing").nJobs(4).apply()) {
      try (Parallel p = Parallel.builder().backend("threads").nJobs(2).build()) {
        assertThat(p.effectiveNJobs()).isEqualTo(2);
        assertThat(p.run(Stream.of(delayed(() -> Thread.currentThread().getName()))).get(0)).contains("threads");
      }
    }
  }

  /** joblib's test_parallel_config_n_jobs_none: the scope can reset nJobs to the default. */
  @Test
  void defaultNJobsResetsToTheBackendsDefault() {
    try (ParallelConfig.Scope outer = ParallelConfig.backend("threads").nJobs(4).apply();
        ParallelConfig.Scope inner = ParallelConfig.builder().defaultNJobs().apply()) {
      assertThat(resolved()).isEqualTo("1@caller");
    }
  }

  @Test
  void theScopeBelongsToTheThreadThatOpenedIt() throws Exception {
    AtomicReference<String> elsewhere = new AtomicReference<>();
    try (ParallelConfig.Scope s = ParallelConfig.backend("threads").nJobs(3).apply()) {
      Thread t = new Thread(() -> elsewhere.set(resolved()));
      t.start();
      t.join();
      assertThat(resolved()).isEqualTo("3@threads");
    }
    assertThat(elsewhere.get()).isEqualTo("1@caller");
  }

  @Test
  void scopesMustCloseInReverseOrder() {
    ParallelConfig.Scope outer = ParallelConfig.nJobs(2).apply();
    ParallelConfig.Scope inner = ParallelConfig.nJobs(3).apply();
    assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("reverse order");
    inner.close();
    outer.close();
    outer.close(); // idempotent
    assertThat(ParallelConfig.current().nJobs()).isEmpty();
  }

  @Test
  void aBackendInstanceCanBeConfigured() {
    SerializingBackend backend = new SerializingBackend();
    List<String> results;
    int nJobs;
    try (ParallelConfig.Scope s = ParallelConfig.backend(backend).nJobs(2).apply();
        Parallel p = Parallel.builder().build()) {
      results = p.run(IntStream.range(0, 6)
          .mapToObj(i -> delayed(() -> i * i + "@" + Thread.currentThread().getName())));
      nJobs = p.effectiveNJobs();
    } finally {
      backend.close();
    }
    // the values computed, in the order of the tasks, each by the configured instance's workers
    assertThat(results).extracting(r -> r.substring(0, r.indexOf('@')))
        .containsExactly("0", "1", "4", "9", "16", "25");
    assertThat(results).allSatisfy(r -> assertThat(r).contains("@serializing-backend-worker"));
    assertThat(backend.batchSizes.stream().mapToInt(Integer::intValue).sum()).as("tasks the instance received")
        .isEqualTo(6);
    assertThat(nJobs).isEqualTo(2);
  }

  /** joblib's test_parallel_config_constructor_params / bad_params. */
  @Test
  void rejectsOptionsThatCannotWork() {
    assertThatThrownBy(() -> ParallelConfig.builder().option("heap", "1g").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("need a backend name");
    assertThatThrownBy(() -> ParallelConfig.backend(new SerializingBackend()).option("heap", "1g").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an instance");
    assertThatThrownBy(() -> ParallelConfig.builder().prefer("gpus")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"threads\" or \"processes\"");
    assertThatThrownBy(() -> ParallelConfig.builder().require("magic")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"sharedmem\"");
    assertThatThrownBy(() -> ParallelConfig.nJobs(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nJobs == 0 has no meaning");
    assertThatThrownBy(() -> ParallelConfig.builder().timeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ParallelConfig.backend("Spark!")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid backend name");
  }

  @Test
  void unknownBackendOptionsAreRejectedByTheBackend() {
    try (ParallelConfig.Scope s = ParallelConfig.backend("threads").option("colour", "blue").apply()) {
      assertThatThrownBy(() -> Parallel.nJobs(2).run(List.of(delayed(() -> 1))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour").hasMessageContaining("idleTimeout");
    }
  }
}
