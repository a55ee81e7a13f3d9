package io.joblib4j.spark.internal;

import java.io.Serial;
import java.io.Serializable;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.spark.FutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import scala.collection.Iterator;
import scala.concurrent.ExecutionContext;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Spark jobs whose partitions' values reach the driver one by one, as each task ends — not all
 * at once when the job does, as {@code collectAsync} gives them — through Spark's own result path
 * ({@code SparkContext.submitJob}, which Java cannot call directly). The handlers run on the
 * caller's {@code events} executor, never on Spark's scheduler thread, in the order Spark reports:
 * every partition's value before the job's end.
 */
final class PartitionJobs {
  private PartitionJobs() {}

  /**
   * An executor that runs what it is given one at a time, in order, on a daemon thread that ends
   * when idle — never shut down, since Spark may still report a cancelled job's end after its call
   * is closed (a refused task would be thrown into Spark's scheduler).
   */
  static Executor serialEvents(String threadName) {
    return new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
  }

  /** What a task computes from its partition; runs on an executor. */
  interface PartitionFunction<T, U> extends Serializable {
    U apply(java.util.Iterator<T> partition);
  }

  /**
   * Submits a job over every partition of {@code rdd}.
   *
   * @param events where the handlers run, one at a time (a single thread of the call's)
   * @param onValue told each partition's index and value, as its task ends
   * @param onEnd told once, after every value: null if the job succeeded, else why it failed
   *     (cancelled included)
   * @return the job, to cancel it alone
   */
  static <T, U> FutureAction<BoxedUnit> submit(JavaRDD<T> rdd, PartitionFunction<T, U> f, Executor events,
      BiConsumer<Integer, U> onValue, Consumer<Throwable> onEnd) {
    RDD<T> r = rdd.rdd();
    FutureAction<BoxedUnit> job = r.context().submitJob(r, new OnPartition<>(f),
        ScalaCollections.indices(r.getNumPartitions()),
        (index, value) -> {
          events.execute(() -> onValue.accept((Integer) index, value));
          return BoxedUnit.UNIT;
        },
        () -> BoxedUnit.UNIT);
    job.onComplete(outcome -> {
      onEnd.accept(outcome.isFailure() ? outcome.failed().get() : null);
      return BoxedUnit.UNIT;
    }, ExecutionContext.fromExecutor(events));
    return job;
  }

  /** The task's function, as the Scala function {@code submitJob} takes. */
  private static final class OnPartition<T, U> extends AbstractFunction1<Iterator<T>, U> implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    private final PartitionFunction<T, U> f;

    OnPartition(PartitionFunction<T, U> f) {
      this.f = f;
    }

    @Override
    public U apply(Iterator<T> partition) {
      return f.apply(ScalaCollections.asJava(partition));
    }
  }
}
