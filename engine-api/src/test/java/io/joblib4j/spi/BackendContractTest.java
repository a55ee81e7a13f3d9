package io.joblib4j.spi;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.joblib4j.Delayed;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.Parallel;
import io.joblib4j.ProgressListener;
import io.joblib4j.RemoteTaskException;
import io.joblib4j.ResultIterator;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.fn.Action;
import io.joblib4j.testing.Rendezvous;
import io.joblib4j.testing.Rendezvous.Gate;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link Backend} guarantees a {@code Parallel} call, as tests: results in input order,
 * or as they finish; a timeout and the first failure stop the call and cancel the tasks still
 * running; a task's exception comes back as itself with the worker's stack trace (or as a {@link
 * RemoteTaskException} when it cannot travel); what cannot be serialized is a {@link
 * TaskSerializationException} naming the field path; the initializer runs once per worker before
 * its first task, and its failure is rethrown as itself; nested calls run inside the task's
 * worker; progress is reported. A backend's test extends this class and says how to make the
 * backend; it runs unchanged on threads, child JVMs or a Spark cluster.
 *
 * <p>Tasks synchronize with the test through a {@link Rendezvous} (latches that work across JVMs),
 * never through sleeps: a test waits for tasks to get somewhere, then lets them go on.
 */
@Timeout(180)
public abstract class BackendContractTest {
  private static Rendezvous rendezvous;
  protected Backend backend;
  private String id;

  /** A backend for one test; it is closed after the test. */
  protected abstract Backend newBackend();

  /** Whether tasks of a call run at the same time (false for the sequential backend). */
  protected boolean runsTasksConcurrently() {
    return true;
  }

  /** Whether the backend enforces {@code timeout} (the sequential backend does not, as in joblib). */
  protected boolean enforcesTimeouts() {
    return true;
  }

  @BeforeAll
  static void openRendezvous() {
    rendezvous = Rendezvous.open();
  }

  @AfterAll
  static void closeRendezvous() {
    rendezvous.close();
  }

  @BeforeEach
  void openBackend() {
    backend = newBackend();
    id = UUID.randomUUID().toString();
  }

  @AfterEach
  void closeBackend() {
    if (backend != null) {
      backend.close();
    }
  }

  /** A Parallel on the backend under test. */
  protected Parallel.Builder parallel(int nJobs) {
    return Parallel.builder().backend(backend).nJobs(nJobs);
  }

  private Gate gate(String name) {
    return rendezvous.gate(id + "/" + name);
  }

  private static String name(Gate g) {
    return g.name();
  }

  private boolean crossesJvm() {
    return backend.traits().crossesJvm();
  }

  private static <R> List<R> drain(ResultIterator<R> it) {
    List<R> out = new ArrayList<>();
    try (it) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  // ---- ordering ------------------------------------------------------------------------------

  @Test
  public void runReturnsEveryResultInInputOrder() {
    try (Parallel p = parallel(2).build()) {
      assertThat(p.run(IntStream.range(0, 500).mapToObj(i -> delayed(x -> x * 2, i))))
          .isEqualTo(IntStream.range(0, 500).map(i -> i * 2).boxed().collect(Collectors.toList()));
      assertThat(p.run(List.<Delayed<Integer>>of())).isEmpty();
    }
  }

  /** Task 0 waits at {@code slow} until the test lets it go; the others arrive at {@code others} and finish. */
  static int slowFirst(int i, Gate slow, Gate others) throws InterruptedException {
    if (i == 0) {
      slow.pass();
    } else {
      others.arrive();
    }
    return i;
  }

  private static Stream<Delayed<Integer>> slowFirstTasks(int n, Gate slow, Gate others) {
    return IntStream.range(0, n).mapToObj(i -> delayed(BackendContractTest::slowFirst, i, slow, others));
  }

  @Test
  public void iterateGivesResultsInInputOrderWhateverOrderTasksFinishIn() {
    assumeTrue(runsTasksConcurrently(), "needs tasks that run at the same time");
    Gate slow = gate("slow");
    Gate others = gate("others");
    int n = 8;
    try (Parallel p = parallel(2).batchSize(1).build()) {
      ResultIterator<Integer> it = p.iterate(slowFirstTasks(n, slow, others));
      rendezvous.awaitArrivals(name(others), n - 1); // every task but the first has finished
      rendezvous.openGate(name(slow));
      assertThat(drain(it)).isEqualTo(IntStream.range(0, n).boxed().collect(Collectors.toList()));
    }
  }

  @Test
  public void iterateUnorderedGivesEachResultAsSoonAsItsTaskFinishes() {
    assumeTrue(runsTasksConcurrently(), "needs tasks that run at the same time");
    Gate slow = gate("slow");
    Gate others = gate("others");
    int n = 8;
    try (Parallel p = parallel(2).batchSize(1).build()) {
      ResultIterator<Integer> it = p.iterateUnordered(slowFirstTasks(n, slow, others));
      List<Integer> first = new ArrayList<>();
      for (int k = 1; k < n; k++) {
        first.add(it.next()); // while task 0 still waits
      }
      assertThat(first).containsExactlyInAnyOrderElementsOf(IntStream.range(1, n).boxed().toList());
      rendezvous.openGate(name(slow));
      assertThat(drain(it)).containsExactly(0);
    }
  }

  // ---- timeouts and fail-fast ----------------------------------------------------------------

  @Test
  public void aTaskRunningLongerThanTheTimeoutFailsTheCallAndIsStopped() {
    assumeTrue(enforcesTimeouts(), "the backend does not enforce timeouts");
    Gate never = gate("never");
    try (Parallel p = parallel(2).batchSize(1).timeout(Duration.ofSeconds(1)).build()) {
      Throwable t = catchThrowable(() -> p.run(List.of(delayed(() -> 1), delayed(() -> {
        never.pass();
        return 2;
      }), delayed(() -> 3))));
      assertThat(t).isInstanceOf(TimeoutException.class).hasMessageContaining("timeout");
      rendezvous.awaitAbandoned(name(never), 1); // interrupted, or its worker killed
      assertThat(p.run(List.of(delayed(() -> 4)))).as("the backend serves the next call").containsExactly(4);
    }
  }

  /** A task's own failure. */
  public static final class ContractFailure extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    public ContractFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  @Test
  public void theFirstFailureFailsTheCallAndCancelsTheTasksStillRunningOrWaiting() {
    Gate running = gate("running");
    Gate go = gate("go");
    Gate never = gate("never");
    Gate ran = gate("ran");
    boolean concurrent = runsTasksConcurrently();
    try (Parallel p = parallel(2).batchSize(1).build()) {
      ResultIterator<Integer> it = p.iterate(IntStream.range(0, 10).mapToObj(i -> delayed(() -> {
        if (i == 0 && concurrent) { // runs until cancelled
          running.arrive();
          never.pass();
        } else if (i == 1) {
          if (concurrent) {
            go.pass();
          }
          throw new ContractFailure("task 1 failed", null);
        } else if (i > 1) {
          ran.arrive();
        }
        return i;
      })));
      if (concurrent) {
        rendezvous.awaitArrivals(name(running), 1);
        rendezvous.openGate(name(go));
      }
      assertThat(catchThrowable(() -> drain(it))).isInstanceOf(ContractFailure.class).hasMessage("task 1 failed");
      if (concurrent) {
        rendezvous.awaitAbandoned(name(never), 1); // the running task was interrupted, or its worker killed
      }
      assertThat(rendezvous.arrivals(name(ran))).as("tasks after the failure never started").isZero();
      assertThat(p.run(List.of(delayed(() -> 5)))).as("the backend serves the next call").containsExactly(5);
    }
  }

  // ---- exceptions ----------------------------------------------------------------------------

  static int failAt3(int i) throws ContractFailure {
    if (i == 3) {
      throw new ContractFailure("task 3 failed", new ArithmeticException("NaN"));
    }
    return i;
  }

  @Test
  public void aTaskExceptionComesBackAsItselfWithTheWorkersStackTrace() {
    Throwable t;
    try (Parallel p = parallel(2).batchSize(2).build()) {
      t = catchThrowable(() -> p.run(IntStream.range(0, 6).mapToObj(i -> delayed(BackendContractTest::failAt3, i))));
    }
    assertThat(t).isExactlyInstanceOf(ContractFailure.class).hasMessage("task 3 failed")
        .hasCauseExactlyInstanceOf(ArithmeticException.class);
    assertThat(t.getCause()).hasMessage("NaN");
    assertThat(Arrays.stream(t.getStackTrace()).map(StackTraceElement::toString))
        .as("the stack trace is the worker's").anyMatch(s -> s.contains("BackendContractTest.failAt3"));
    if (runsTasksConcurrently()) { // a sequential call throws in the caller's own stack
      assertThat(Arrays.stream(t.getSuppressed()).map(Throwable::getMessage))
          .as("a note says which task failed where").anyMatch(m -> m.contains("task 3"));
    }
  }

  /** An exception that holds something not serializable. */
  public static final class Unsendable extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;
    @SuppressWarnings("unused")
    private final Object thread = Thread.currentThread(); // Thread is not Serializable

    public Unsendable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  static int throwUnsendable() {
    throw new Unsendable("model file is corrupt", new ArithmeticException("NaN"));
  }

  @Test
  public void anExceptionThatCannotBeSerializedArrivesAsARemoteTaskExceptionKeepingWhatIsKnown() {
    assumeTrue(crossesJvm(), "only tasks in other JVMs serialize their exceptions");
    Throwable t;
    try (Parallel p = parallel(2).build()) {
      t = catchThrowable(() -> p.run(List.of(delayed(BackendContractTest::throwUnsendable))));
    }
    assertThat(t).isInstanceOf(RemoteTaskException.class).hasMessageContaining("model file is corrupt");
    RemoteTaskException r = (RemoteTaskException) t;
    assertThat(r.remoteClassName()).isEqualTo(Unsendable.class.getName());
    assertThat(r.remoteMessage()).isEqualTo("model file is corrupt");
    assertThat(r.remoteStackTrace()).contains("model file is corrupt").contains("throwUnsendable");
    assertThat(Arrays.stream(r.getStackTrace()).map(StackTraceElement::toString))
        .anyMatch(s -> s.contains("BackendContractTest.throwUnsendable"));
    assertThat(r.getCause()).isInstanceOf(RemoteTaskException.class);
    assertThat(((RemoteTaskException) r.getCause()).remoteClassName()).isEqualTo(ArithmeticException.class.getName());
    assertThat(r.getCause()).hasMessageStartingWith("java.lang.ArithmeticException: NaN");
  }

  /** Serializes, but refuses to be read back in the caller. */
  public static final class Undeserializable extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    public Undeserializable(String message) {
      super(message);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException {
      throw new InvalidObjectException("refuses to be read");
    }
  }

  @Test
  public void anExceptionThatCannotBeDeserializedInTheCallerArrivesAsARemoteTaskException() {
    assumeTrue(crossesJvm(), "only tasks in other JVMs serialize their exceptions");
    Throwable t;
    try (Parallel p = parallel(2).build()) {
      t = catchThrowable(() -> p.run(List.of(delayed(() -> {
        throw new Undeserializable("bad input row 42");
      }))));
    }
    assertThat(t).isInstanceOf(RemoteTaskException.class).hasMessageContaining("bad input row 42");
    assertThat(((RemoteTaskException) t).remoteClassName()).isEqualTo(Undeserializable.class.getName());
    assertThat(Arrays.stream(t.getSuppressed()).map(Throwable::getMessage))
        .anyMatch(m -> m.contains("could not be deserialized here") && m.contains("refuses to be read"));
  }

  // ---- serialization errors ------------------------------------------------------------------

  /** An argument whose field path leads to something not serializable. */
  public static final class Model implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final Client client = new Client();
  }

  public static final class Client implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final Map<String, Object> settings = Map.of("conn", new Connection());
  }

  /** Not Serializable, like a socket or a database connection. */
  public static final class Connection {}

  @Test
  public void aTaskThatCannotBeSerializedFailsTheCallNamingTheFieldPath() {
    assumeTrue(crossesJvm(), "only tasks in other JVMs are serialized");
    Gate ran = gate("ran");
    try (Parallel p = parallel(2).build()) {
      Throwable t = catchThrowable(() -> p.run(List.of(delayed(m -> {
        ran.arrive();
        return m.toString();
      }, new Model()))));
      assertThat(t).isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining(Connection.class.getName() + " is not Serializable");
      TaskSerializationException e = (TaskSerializationException) t;
      assertThat(e.className()).isEqualTo(Connection.class.getName());
      assertThat(e.path()).isEqualTo("argument 0 (" + Model.class.getName() + ") → field 'client' ("
          + Client.class.getName() + ") → field 'settings' (" + Map.of("conn", 1).getClass().getName() + ") → [conn] ("
          + Connection.class.getName() + ")");
      assertThat(rendezvous.arrivals(name(ran))).as("the task never ran").isZero();
      assertThat(p.run(List.of(delayed(() -> 7)))).as("the backend serves the next call").containsExactly(7);
    }
  }

  /** A result whose field is not serializable. */
  public static final class Holder implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final Connection connection = new Connection();
  }

  @Test
  public void aResultThatCannotBeSerializedFailsTheCallNamingTheTaskAndTheFieldPath() {
    assumeTrue(crossesJvm(), "only results from other JVMs are serialized");
    try (Parallel p = parallel(1).batchSize(2).build()) {
      Throwable t = catchThrowable(() -> p.run(List.of(delayed(() -> "fine"), delayed(() -> new Holder()))));
      assertThat(t).isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("the result of task 1 of")
          .hasMessageContaining(Connection.class.getName() + " is not Serializable");
      TaskSerializationException e = (TaskSerializationException) t;
      assertThat(e.className()).isEqualTo(Connection.class.getName());
      assertThat(e.path()).isEqualTo("result (" + Holder.class.getName() + ") → field 'connection' ("
          + Connection.class.getName() + ")");
      assertThat(p.run(List.of(delayed(() -> 8)))).as("the backend serves the next call").containsExactly(8);
    }
  }

  // ---- initializer ---------------------------------------------------------------------------

  /** What an initializer did in the JVM it ran in. */
  static final class InitProbe {
    static final AtomicInteger RUNS = new AtomicInteger();
    static final ThreadLocal<Boolean> IN_THIS_THREAD = ThreadLocal.withInitial(() -> false);
    static volatile boolean ran;

    static void initialize() {
      RUNS.incrementAndGet();
      IN_THIS_THREAD.set(true);
      ran = true;
    }
  }

  /** (pid, initializer runs in this JVM so far, ran in this thread, ran in this JVM). */
  static long[] probe(int i) {
    return new long[] {ProcessHandle.current().pid(), InitProbe.RUNS.get(), InitProbe.IN_THIS_THREAD.get() ? 1 : 0,
        InitProbe.ran ? 1 : 0};
  }

  @Test
  public void theInitializerRunsOncePerWorkerBeforeItsFirstTask() {
    InitProbe.RUNS.set(0); // for workers that are threads of this JVM
    InitProbe.ran = false;
    Action initializer = InitProbe::initialize;
    try (Parallel p = parallel(2).batchSize(1).initializer(initializer).build()) {
      for (int call = 0; call < 2; call++) {
        List<long[]> out = p.run(IntStream.range(0, 8).mapToObj(i -> delayed(BackendContractTest::probe, i)));
        assertThat(out).as("call %d: every task ran after the initializer, in its JVM", call)
            .allSatisfy(r -> assertThat(r[3]).isOne());
        if (crossesJvm()) {
          Map<Long, Long> runsPerJvm = new HashMap<>();
          out.forEach(r -> runsPerJvm.merge(r[0], r[1], Math::max));
          assertThat(runsPerJvm.values()).as("call %d: once per worker JVM, however many calls", call).containsOnly(1L);
        } else if (call == 0) {
          assertThat(out).as("the initializer ran in the task's own worker thread").allSatisfy(r -> assertThat(r[2]).isOne());
          assertThat(InitProbe.RUNS.get()).as("at most once per worker").isBetween(1, 2);
        }
      }
    }
  }

  /** An initializer's own failure. */
  public static final class InitFailure extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    public InitFailure(String message) {
      super(message);
    }
  }

  @Test
  public void aFailingInitializerFailsTheCallWithItsOwnException() {
    Action failing = () -> {
      throw new InitFailure("no licence server");
    };
    try (Parallel p = parallel(2).initializer(failing).build()) {
      assertThat(catchThrowable(() -> p.run(List.of(delayed(() -> 1), delayed(() -> 2)))))
          .isExactlyInstanceOf(InitFailure.class).hasMessage("no licence server");
    }
    try (Parallel p = parallel(2).build()) {
      assertThat(p.run(List.of(delayed(() -> 3)))).as("the backend serves the next call").containsExactly(3);
    }
  }

  // ---- nesting and progress ------------------------------------------------------------------

  @Test
  public void aNestedParallelInsideATaskRunsInTheTasksOwnJvm() {
    try (Parallel p = parallel(2).build()) {
      List<long[]> out = p.run(IntStream.range(0, 2).mapToObj(i -> delayed(() -> {
        long pid = ProcessHandle.current().pid();
        try (Parallel inner = Parallel.nJobs(2)) {
          List<long[]> r = inner.run(IntStream.range(0, 4).mapToObj(j -> delayed(
              () -> new long[] {ProcessHandle.current().pid(), 10L * i + j})));
          long sum = r.stream().mapToLong(x -> x[1]).sum();
          boolean here = r.stream().allMatch(x -> x[0] == pid);
          return new long[] {here ? 1 : 0, sum};
        }
      })));
      assertThat(out).extracting(r -> r[0]).as("inner tasks stay in the outer task's JVM").containsOnly(1L);
      assertThat(out).extracting(r -> r[1]).containsExactly(6L, 46L);
    }
  }

  @Test
  public void progressListenersHearOfFinishedTasksAndOfTheEnd() {
    List<ProgressListener.Progress> seen = new CopyOnWriteArrayList<>();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    ProgressListener listener = new ProgressListener() {
      @Override
      public void progressed(CallInfo call, Progress progress) {
        seen.add(progress);
      }

      @Override
      public void finished(CallInfo call, Progress progress, Throwable failure) {
        seen.add(progress);
        if (failure != null) {
          failures.add(failure);
        }
      }
    };
    try (Parallel p = parallel(2).batchSize(2).progress(listener).build()) {
      p.run(IntStream.range(0, 20).mapToObj(i -> delayed(() -> i)));
    }
    assertThat(seen).anyMatch(s -> s.completedTasks() > 0 && s.completedTasks() < 20);
    ProgressListener.Progress last = seen.get(seen.size() - 1);
    assertThat(last.completedTasks()).isEqualTo(20);
    assertThat(last.complete()).isTrue();
    assertThat(failures).isEmpty();
  }

  @Test
  public void theTimeoutAppliesToEachTaskNotToAWholeBatchBecauseWorkersReportEachTask() {
    assumeTrue(enforcesTimeouts() && backend.traits().reportsTaskProgress(), "needs per-task progress");
    try (Parallel p = parallel(2).batchSize(6).timeout(Duration.ofMillis(1500)).build()) {
      // two batches of 6 tasks of 300 ms: 1.8 s each, more than the timeout, but no task is
      List<Integer> out = p.run(IntStream.range(0, 12).mapToObj(i -> delayed(() -> {
        Thread.sleep(300); // a task that runs long, not a synchronization
        return i;
      })));
      assertThat(out).isEqualTo(IntStream.range(0, 12).boxed().collect(Collectors.toList()));
    }
  }

  // ---- the numbers and names messages give ---------------------------------------------------

  // Every message that names a task says "task <i> of <function>": i is the task's index in the
  // call's input, from 0 (the index of its result in run's list), never a position in a batch.
  // Batches of 3 put input 7 second in the third batch, so a count in the batch (1 or 2) or from
  // 1 (8) cannot pass for it.

  static int failAt7(int i) throws ContractFailure {
    if (i == 7) {
      throw new ContractFailure("input 7 failed", null);
    }
    return i;
  }

  static Object echo(Object x) {
    return x;
  }

  static Object unsendableResultAt7(int i) {
    return i == 7 ? new Holder() : i;
  }

  private static List<String> notes(Throwable t) {
    return Arrays.stream(t.getSuppressed()).map(Throwable::getMessage).collect(Collectors.toList());
  }

  @Test
  public void aFailedTasksNoteNamesItByItsIndexInTheInputAndItsFunction() {
    assumeTrue(runsTasksConcurrently(), "a sequential call throws in the caller's own stack, without a note");
    Throwable t;
    try (Parallel p = parallel(2).batchSize(3).build()) {
      t = catchThrowable(() -> p.run(IntStream.range(0, 10).mapToObj(i -> delayed(BackendContractTest::failAt7, i))));
    }
    assertThat(t).isExactlyInstanceOf(ContractFailure.class).hasMessage("input 7 failed");
    assertThat(notes(t)).anyMatch(m -> m.contains("task 7 of BackendContractTest.failAt7 failed on "));
  }

  @Test
  public void aTimeoutNamesTheTaskByItsIndexInTheInput() {
    assumeTrue(enforcesTimeouts(), "the backend does not enforce timeouts");
    Gate never = gate("never");
    try (Parallel p = parallel(2).batchSize(1).timeout(Duration.ofSeconds(1)).build()) {
      Throwable t = catchThrowable(() -> p.run(IntStream.range(0, 8).mapToObj(i -> delayed(() -> {
        if (i == 7) {
          never.pass();
        }
        return i;
      }))));
      assertThat(t).isInstanceOf(TimeoutException.class).hasMessageContaining("task 7 of lambda in BackendContractTest");
      rendezvous.awaitAbandoned(name(never), 1);
    }
  }

  @Test
  public void aTaskOrResultThatCannotTravelIsNamedByItsIndexInTheInput() {
    assumeTrue(crossesJvm(), "only tasks in other JVMs are serialized");
    try (Parallel p = parallel(1).batchSize(3).build()) {
      Throwable task = catchThrowable(() -> p.run(IntStream.range(0, 10)
          .mapToObj(i -> delayed(BackendContractTest::echo, i == 7 ? new Model() : (Object) i))));
      assertThat(task).isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("task 7 of BackendContractTest.echo cannot be sent to ");
      Throwable result = catchThrowable(() -> p.run(IntStream.range(0, 10)
          .mapToObj(i -> delayed(BackendContractTest::unsendableResultAt7, i))));
      assertThat(result).isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("the result of task 7 of BackendContractTest.unsendableResultAt7 cannot be sent back");
    }
  }

  @Test
  public void aMemoizedFunctionIsNamedAsTheFunctionItWrapsInProgressAndInErrors(@TempDir Path cache) {
    MemoizedFn1<Integer, Integer> memoized = Memory.builder(cache).verbose(0).build().cache(BackendContractTest::failAt7);
    List<String> labels = new CopyOnWriteArrayList<>();
    ProgressListener listener = new ProgressListener() {
      @Override
      public void started(CallInfo call) {
        labels.add(call.description());
      }
    };
    Throwable t;
    try (Parallel p = parallel(2).batchSize(3).progress(listener).build()) {
      t = catchThrowable(() -> p.run(IntStream.range(0, 10).mapToObj(i -> delayed(memoized, i))));
    }
    assertThat(labels).as("the progress label, and the Spark UI's job description").containsExactly("BackendContractTest.failAt7");
    assertThat(t).isExactlyInstanceOf(ContractFailure.class).hasMessage("input 7 failed");
    if (runsTasksConcurrently()) {
      assertThat(notes(t)).anyMatch(m -> m.contains("task 7 of BackendContractTest.failAt7 failed on "));
    }
  }
}
