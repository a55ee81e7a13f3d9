package io.joblib4j.spark.stages.internal;

import static org.apache.spark.sql.functions.col;

import io.joblib4j.testing.Rendezvous;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;

/**
 * The stage the cross-JVM tests run in child drivers and in the test JVM: the same code, so the
 * same key everywhere. Its waits are asked for by system properties of the JVM it runs in (never
 * by the plan, which would change the key): {@code stage.driverGate} in the stage function on the
 * driver, {@code stage.taskGate} in its typed map, in a task.
 */
public final class ChildStages {
  public static final AtomicInteger CALLS = new AtomicInteger();

  private ChildStages() {}

  /** The even ids, doubled, through a typed map (a lambda that travels to the executors). */
  public static Dataset<Row> clean(Dataset<Row> raw) throws InterruptedException {
    CALLS.incrementAndGet();
    waitAt("stage.driverGate");
    return raw.filter(col("id").mod(2).equalTo(0))
        .map((MapFunction<Row, Long>) r -> {
          waitAt("stage.taskGate");
          return r.getLong(0) * 2;
        }, Encoders.LONG())
        .toDF("twice");
  }

  /**
   * Like {@link #clean}, but the first attempt of each write task fails after writing half its rows:
   * Spark retries the task, and the entry must hold each row once.
   */
  public static Dataset<Row> flaky(Dataset<Row> raw) {
    CALLS.incrementAndGet();
    return raw.filter(col("id").mod(2).equalTo(0))
        .mapPartitions((org.apache.spark.api.java.function.MapPartitionsFunction<Row, Long>) rows -> {
          org.apache.spark.TaskContext task = org.apache.spark.TaskContext.get();
          java.util.List<Long> out = new java.util.ArrayList<>();
          rows.forEachRemaining(r -> out.add(r.getLong(0) * 2));
          if (task.attemptNumber() == 0) {
            java.util.Iterator<Long> it = out.iterator();
            return new java.util.Iterator<Long>() {
              int given;

              @Override
              public boolean hasNext() {
                return it.hasNext();
              }

              @Override
              public Long next() {
                if (++given > out.size() / 2) {
                  throw new IllegalStateException("a failing first attempt, half written");
                }
                return it.next();
              }
            };
          }
          return out.iterator();
        }, Encoders.LONG())
        .toDF("twice");
  }

  /** Arrives at, then waits for, the gate {@code host:port:name} the property names, if it is set. */
  static void waitAt(String property) throws InterruptedException {
    String at = System.getProperty(property);
    if (at == null) {
      return;
    }
    String[] parts = at.split(":", 3);
    Rendezvous.Gate gate = new Rendezvous.Gate(parts[0], Integer.parseInt(parts[1]), parts[2]);
    gate.arrive(Long.toString(ProcessHandle.current().pid()));
    gate.pass();
  }
}
