package io.joblib4j.testing;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendProvider;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.CallSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A test backend that behaves as if workers were other JVMs: every batch and every outcome goes
 * through Java serialization, and it declares no shared memory. It also records the size of every
 * batch it receives, so tests can watch the core's batching.
 */
public final class SerializingBackend implements Backend {
  public final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "serializing-backend-worker");
    t.setDaemon(true);
    return t;
  });

  @Override
  public String name() {
    return "serializing";
  }

  @Override
  public BackendTraits traits() {
    return BackendTraits.otherJvms(1);
  }

  @Override
  public int capacity() {
    return 4;
  }

  @Override
  public BackendCall startCall(CallSpec spec) {
    return new BackendCall() {
      private final List<Future<?>> running = new CopyOnWriteArrayList<>();

      @Override
      public void submit(Batch batch, BatchListener listener) {
        batchSizes.add(batch.size());
        byte[] shipped = JavaSerialized.bytes(batch); // fails here, in the caller, like a real remote backend
        running.add(pool.submit(() -> {
          Batch remote = JavaSerialized.read(shipped);
          listener.started();
          BatchOutcome outcome = remote.run("remote " + Thread.currentThread().getName(), listener::taskDone);
          listener.completed(JavaSerialized.roundTrip(outcome));
        }));
      }

      @Override
      public void cancel() {
        running.forEach(f -> f.cancel(true));
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }

  /** Lets tests name this backend: it is listed in the test classpath's META-INF/services. */
  public static final class Provider implements BackendProvider {
    @Override
    public String name() {
      return "serializing";
    }

    @Override
    public Backend create(Map<String, Object> options) {
      return new SerializingBackend();
    }
  }

  /** A provider of this backend under any name, for registry tests. */
  public static class ProviderNamed implements BackendProvider {
    private final String name;

    protected ProviderNamed(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Backend create(Map<String, Object> options) {
      return new SerializingBackend();
    }
  }
}
