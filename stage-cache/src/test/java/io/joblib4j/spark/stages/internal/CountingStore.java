package io.joblib4j.spark.stages.internal;

import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that counts the calls made to another (what a stage call costs, in file system
 * operations), and whose publish can be made to fail.
 */
final class CountingStore implements Store {
  private final Store inner;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private volatile IOException publishFailure;

  CountingStore(Store inner) {
    this.inner = inner;
  }

  /** How many times {@code operation} ({@code open}, {@code list}, {@code children}, ...) was called. */
  int calls(String operation) {
    AtomicInteger n = calls.get(operation);
    return n == null ? 0 : n.get();
  }

  /** Every publish from now on throws {@code failure} (null: publishes again). */
  void failPublishWith(IOException failure) {
    this.publishFailure = failure;
  }

  void reset() {
    calls.clear();
  }

  private void count(String operation) {
    calls.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public URI location() {
    return inner.location();
  }

  @Override
  public Optional<InputStream> open(String path) throws IOException {
    count("open");
    return inner.open(path);
  }

  @Override
  public Optional<Path> localFile(String path) throws IOException {
    count("localFile");
    return inner.localFile(path);
  }

  @Override
  public Publication publish(String entry, List<EntryFile> files) throws IOException {
    count("publish");
    if (publishFailure != null) {
      throw publishFailure;
    }
    return inner.publish(entry, files);
  }

  @Override
  public void replace(String path, byte[] content) throws IOException {
    count("replace");
    inner.replace(path, content);
  }

  @Override
  public boolean exists(String path) throws IOException {
    count("exists");
    return inner.exists(path);
  }

  @Override
  public List<StoreFile> list(String dir) throws IOException {
    count("list");
    return inner.list(dir);
  }

  @Override
  public List<StoreFile> children(String dir) throws IOException {
    count("children");
    return inner.children(dir);
  }

  @Override
  public void touch(String entry, Instant accessedAt) throws IOException {
    count("touch");
    inner.touch(entry, accessedAt);
  }

  @Override
  public void delete(String path) throws IOException {
    count("delete");
    inner.delete(path);
  }

  @Override
  public int sweep(Duration age) throws IOException {
    count("sweep");
    return inner.sweep(age);
  }

  @Override
  public List<StoreFile> temporaries(Duration age) throws IOException {
    count("temporaries");
    return inner.temporaries(age);
  }

  @Override
  public void close() {
    inner.close();
  }
}
