package io.joblib4j.hdfs.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The listings of many folders at once: a walk over a cache spends its time waiting for the
 * NameNode, one call per folder, so the folders of a function's entries are listed by several
 * threads (8, shared by the JVM's stores, gone after a minute idle), the calls the walk would make
 * one after another. Only the calls are parallel: the caller assembles what they return in order.
 */
final class ParallelListings {
  /** A folder with at least this many subfolders to list has them listed in parallel. */
  static final int PARALLEL_FROM = 16;
  private static final int THREADS = 8;

  /** Lists a folder: one NameNode call. */
  @FunctionalInterface
  interface Lister {
    FileStatus[] list(Path folder) throws IOException;
  }

  private ParallelListings() {}

  /** The listings of {@code folders}, in their order. */
  static List<FileStatus[]> of(List<Path> folders, Lister lister) throws IOException {
    List<Future<FileStatus[]>> pending = new ArrayList<>(folders.size());
    try {
      for (Path p : folders) {
        pending.add(Pool.EXECUTOR.submit(() -> {
          try {
            return lister.list(p);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }));
      }
      List<FileStatus[]> out = new ArrayList<>(folders.size());
      for (Future<FileStatus[]> f : pending) {
        out.add(f.get());
      }
      return out;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while listing " + folders.size() + " folders");
    } finally {
      pending.forEach(f -> f.cancel(true)); // those not done when one failed
    }
  }

  private static final class Pool {
    private static final AtomicInteger COUNT = new AtomicInteger();
    static final ThreadPoolExecutor EXECUTOR = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "joblib4j-hdfs-listing-" + COUNT.incrementAndGet());
          t.setDaemon(true);
          return t;
        });

    static {
      EXECUTOR.allowCoreThreadTimeOut(true);
    }
  }
}
