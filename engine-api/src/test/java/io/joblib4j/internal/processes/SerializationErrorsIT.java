package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.fn.Fn1;
import io.joblib4j.testing.Rendezvous.Gate;
import io.joblib4j.testing.Unreadable;
import java.io.InvalidObjectException;
import java.io.Serial;
import java.io.Serializable;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class SerializationErrorsIT {

  static final class Model implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final Client client = new Client();
  }

  static final class Client implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final Map<String, Object> settings = Map.of("conn", new Connection());
  }

  /** Not Serializable, like a socket or a database connection. */
  static final class Connection {}

  @Test
  void anArgumentThatCannotBeSerializedIsReportedWithItsFieldPathBeforeDispatch() {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).batchSize(1).build()) {
      // both workers' pids: two tasks that wait until both run, so that each holds a worker (a quick
      // worker took both tasks of a call on a busy machine, however many calls were made)
      Gate both = Workers.rendezvous().gate("both-" + java.util.UUID.randomUUID());
      ResultIterator<Long> pids = p.iterate(List.of(pidWhileBothRun(both), pidWhileBothRun(both)));
      Workers.rendezvous().awaitArrivals(both.name(), 2);
      Workers.rendezvous().openGate(both.name());
      Set<Long> before = new java.util.HashSet<>();
      pids.forEachRemaining(before::add);
      assertThat(before).hasSize(2);
      assertThatThrownBy(() -> p.run(IntStream.range(0, 4).mapToObj(i -> i == 2
          ? delayed(m -> m.toString(), new Model())
          : delayed(m -> "fine", (Object) "x"))))
          .isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("cannot be sent to a worker JVM")
          .hasMessageContaining(Connection.class.getName() + " is not Serializable")
          .hasMessageContaining("argument 0 (" + Model.class.getName() + ") → field 'client' ("
              + Client.class.getName() + ") → field 'settings'")
          .hasMessageContaining("[conn] (" + Connection.class.getName() + ")")
          .satisfies(e -> {
            TaskSerializationException t = (TaskSerializationException) e;
            assertThat(t.className()).isEqualTo(Connection.class.getName());
            assertThat(t.path()).startsWith("argument 0");
          });
      // the workers were not harmed
      assertThat(p.run(List.of(delayed(Workers::pid), delayed(Workers::pid)))).isSubsetOf(before);
    }
  }

  /** A task that tells the test it runs, waits at {@code both} until the test opens it, and gives its worker's pid. */
  static Delayed<Long> pidWhileBothRun(Gate both) {
    return delayed(g -> {
      g.arrive();
      g.pass();
      return Workers.pid();
    }, both);
  }

  @Test
  void aLambdaCapturingSomethingNotSerializableIsReportedThroughItsCapturedValue() {
    Connection conn = new Connection();
    try (Parallel p = Workers.processes(1)) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> conn.hashCode()))))
          .isInstanceOf(TaskSerializationException.class)
          .hasMessageStartingWith("task 0 of lambda in SerializationErrorsIT.")
          .hasMessageContaining("function (lambda in SerializationErrorsIT")
          .hasMessageContaining("captured value 0 (" + Connection.class.getName() + ")");
    }
  }

  @Test
  void aTaskThatCannotBeDeserializedInTheWorkerNamesTheTaskAndTheCause() {
    try (Parallel p = Workers.processes(1)) {
      assertThatThrownBy(() -> p.run(IntStream.range(0, 3).mapToObj(i -> delayed(x -> "ok",
          i == 1 ? new Unreadable() : (Object) "x"))))
          .isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("could not be deserialized in worker process")
          .hasMessageContaining("Unreadable refuses to be read")
          .hasMessageMatching("(?s)task 1 of lambda in SerializationErrorsIT.*")
          .hasCauseInstanceOf(InvalidObjectException.class);
      assertThat(p.run(List.of(delayed(() -> 3)))).containsExactly(3);
    }
  }

  @Test
  void aResultThatCannotBeSentBackNamesTheTaskAndTheClass() {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).batchSize(2).build()) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> "fine"), delayed(() -> new Connection()))))
          .isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("the result of task 1 of lambda in SerializationErrorsIT")
          .hasMessageContaining("cannot be sent back from worker process")
          .hasMessageContaining(Connection.class.getName() + " is not Serializable");
      assertThat(p.run(List.of(delayed(() -> 4)))).containsExactly(4);
    }
  }

  @Test
  void classesOfAUrlClassLoaderOnTheContextAreShippedToTheWorkers(@TempDir Path dir) throws Exception {
    Path src = dir.resolve("src/demo/Doubler.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, "package demo; public class Doubler implements io.joblib4j.fn.Fn1<Integer, Integer> {"
        + " public Integer invoke(Integer x) { return 2 * x; } }");
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(javac.run(null, null, null, "-cp", System.getProperty("java.class.path"), "-d", classes.toString(),
        src.toString())).isZero();
    Thread me = Thread.currentThread();
    ClassLoader old = me.getContextClassLoader();
    try (URLClassLoader user = new URLClassLoader(new URL[] {classes.toUri().toURL()}, old)) {
      me.setContextClassLoader(user);
      @SuppressWarnings("unchecked")
      Fn1<Integer, Integer> doubler = (Fn1<Integer, Integer>) user.loadClass("demo.Doubler").getConstructor().newInstance();
      try (Parallel p = Workers.processes(1)) {
        assertThat(p.run(List.of(delayed(doubler, 21)))).containsExactly(42);
      }
    } finally {
      me.setContextClassLoader(old);
    }
  }

  @Test
  void classesOfALoaderWorkersCannotReproduceAreRefusedWithAnExplanation() throws Exception {
    byte[] bytes;
    try (var in = Connection.class.getResourceAsStream("SerializationErrorsIT$Payload.class")) {
      bytes = in.readAllBytes();
    }
    ClassLoader inMemory = new ClassLoader(getClass().getClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.equals(Payload.class.getName())) {
          synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            return c != null ? c : defineClass(name, bytes, 0, bytes.length);
          }
        }
        return super.loadClass(name, resolve);
      }
    };
    Object payload = inMemory.loadClass(Payload.class.getName()).getConstructor().newInstance();
    try (Parallel p = Workers.processes(1)) {
      assertThatThrownBy(() -> p.run(List.of(delayed(x -> x.toString(), payload))))
          .isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("class " + Payload.class.getName() + " was loaded by")
          .hasMessageContaining("a worker JVM cannot load")
          .hasMessageContaining("argument 0 (" + Payload.class.getName() + ")");
    }
  }

  public static final class Payload implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
  }
}
