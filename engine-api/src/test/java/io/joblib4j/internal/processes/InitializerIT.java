package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import io.joblib4j.TaskSerializationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seed 000's shape: a global value whose class can only be initialized once something else was
 * set up in the worker itself (there, {@code import matlab} before unpickling {@code
 * matlab.double}); the initializer does that set-up once in each worker before its first task.
 */
@Timeout(120)
class InitializerIT {

  /** Stands for the native engine: must be loaded in the JVM before its values can exist. */
  static final class Engine {
    static final AtomicInteger LOADS = new AtomicInteger();
    static volatile boolean loaded;

    static void load() {
      LOADS.incrementAndGet();
      loaded = true;
    }
  }

  /** Stands for {@code x = matlab.double([[0.0]])}: its class initializer needs the engine. */
  static final class EngineGlobal {
    static final double[][] X;

    static {
      if (!Engine.loaded) {
        throw new IllegalStateException("the engine is not loaded in this JVM");
      }
      X = new double[][] {{0.0}};
    }
  }

  @Test
  void runsTheInitializerOnceInEachWorkerBeforeItsFirstTask() {
    ProcessesBackend b = Workers.backend(Map.of("reuse", false));
    try (b; Parallel p = Parallel.builder().backend(b).nJobs(2).initializer(Engine::load).build()) {
      for (int call = 0; call < 3; call++) {
        List<long[]> r = p.run(IntStream.range(0, 40).mapToObj(i -> delayed(x -> {
          Thread.sleep(2);
          return new long[] {Workers.pid(), (long) EngineGlobal.X[0][0], Engine.LOADS.get()};
        }, i)));
        Map<Long, Long> loadsByWorker = new HashMap<>();
        r.forEach(x -> loadsByWorker.put(x[0], x[2]));
        assertThat(loadsByWorker.values()).as("call %d: one load per worker", call).containsOnly(1L);
      }
    }
  }

  @Test
  void withoutTheInitializerTheGlobalCannotBeUsedInAFreshWorker() {
    ProcessesBackend b = Workers.backend(Map.of("reuse", false)); // its workers are spoiled by this test
    try (b; Parallel p = Workers.on(b, 1)) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> EngineGlobal.X[0][0]))))
          .isInstanceOf(ExceptionInInitializerError.class)
          .cause().hasMessage("the engine is not loaded in this JVM");
    }
  }

  @Test
  void aFailingInitializerFailsTheCallWithItsOwnExceptionAndTheWorkersStayUsable() {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2)
        .initializer(() -> {
          throw new IllegalStateException("no licence server");
        }).build()) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> 1))))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("no licence server")
          .satisfies(e -> assertThat(e.getSuppressed()).anyMatch(s -> s.getMessage().contains("the initializer failed in worker process")));
    }
    try (Parallel p = Workers.processes(2)) {
      assertThat(p.run(List.of(delayed(() -> 2)))).containsExactly(2);
    }
  }

  @Test
  void anInitializerThatCannotBeSerializedFailsBeforeAnyWorkerIsAsked() {
    Thread notSerializable = Thread.currentThread();
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2)
        .initializer(() -> notSerializable.getName()).build()) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> 1))))
          .isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("the initializer cannot be sent to a worker JVM")
          .hasMessageContaining("java.lang.Thread is not Serializable")
          .hasMessageContaining("captured value 0 (java.lang.Thread)");
    }
  }
}
