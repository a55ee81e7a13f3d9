package io.joblib4j.spark.connect.internal;

import io.joblib4j.Delayed;
import io.joblib4j.Joblib;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.worker.ArgumentSharer;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.lang.invoke.SerializedLambda;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.jar.JarOutputStream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import org.apache.spark.sql.SparkSession;

/**
 * The Connect path's {@link ArgumentSharer}: a task argument over {@code maxNbytes} crosses to the
 * server once, as a jar added to the session (the one way a Connect client can hand the executors a
 * file), and every batch that uses it carries a {@link SharedArgument} naming it instead. The jar
 * is named by the argument's content ({@code Joblib.hash}), so the same value in a later call of
 * the same session is not sent again; a value the hasher cannot read gets a name of its own.
 *
 * <p>It also notes, for {@link UserCode}, the classes of each task's function and the classes a
 * serializable lambda was written in, which the codec's class check does not see.
 *
 * <p>Artifacts cannot be removed from a session: a shared argument stays on the server's disk
 * until the session ends.
 */
final class ConnectSharer implements ArgumentSharer {
  static final String RESOURCE_PREFIX = "joblib4j-shared/";
  /** Small arguments remembered by identity, so a reused medium-size one is measured once; bounded. */
  private static final int MAX_REMEMBERED_SMALL = 4096;

  private final SparkSession session;
  private final long maxNbytes;
  private final UserCode code;
  private final Map<Object, SharedArgument> shared = new IdentityHashMap<>();
  private final Map<Object, Boolean> small = new IdentityHashMap<>();

  ConnectSharer(SparkSession session, long maxNbytes, UserCode code) {
    this.session = session;
    this.maxNbytes = maxNbytes;
    this.code = code;
  }

  @Override
  public synchronized Replacer prepare(Batch batch) throws IOException {
    Map<Object, Object> replacements = new IdentityHashMap<>();
    for (Delayed<?> task : batch.tasks()) {
      code.noteFunction(task.function());
      if (maxNbytes < 0) {
        continue;
      }
      for (Object arg : task.arguments()) {
        if (arg == null || replacements.containsKey(arg) || small.containsKey(arg)) {
          continue;
        }
        SharedArgument ref = shared.get(arg);
        if (ref == null) {
          if (!ArgumentSize.over(arg, maxNbytes)) {
            if (ArgumentSize.lengthOf(arg) < 0 && small.size() < MAX_REMEMBERED_SMALL) {
              small.put(arg, Boolean.TRUE);
            }
            continue;
          }
          ref = share(arg);
          shared.put(arg, ref);
        }
        replacements.put(arg, ref);
      }
    }
    code.ship(); // the classes of the shared arguments
    return object -> {
      if (object instanceof SerializedLambda lambda) {
        code.noteLambda(lambda);
        return object;
      }
      return replacements.isEmpty() ? object : replacements.getOrDefault(object, object);
    };
  }

  /** Writes {@code value} into a jar named by its content and adds it to the session, unless it is there. */
  private SharedArgument share(Object value) throws IOException {
    String key = contentKey(value);
    String resource = RESOURCE_PREFIX + key + ".ser";
    String jarName = "joblib4j-shared-" + key + ".jar";
    if (ConnectArtifacts.added(session, jarName)) {
      return new SharedArgument(resource, ArgumentSize.lengthOf(value));
    }
    Path jar = TempJars.dir().resolve(jarName);
    long bytes;
    try {
      bytes = writeJar(jar, resource, value);
      code.ship();
      ConnectArtifacts.addOnce(session, jar);
    } catch (IOException | RuntimeException e) {
      throw new IOException("joblib4j: a task argument of " + value.getClass().getName() + " over maxNbytes ("
          + maxNbytes + " bytes) could not be given to the Spark Connect server once for all batches: " + e
          + ". Free space in java.io.tmpdir, or pass the data as a path to storage the executors read", e);
    } finally {
      Files.deleteIfExists(jar); // the server keeps its own copy
    }
    return new SharedArgument(resource, bytes);
  }

  /** The value's content hash, or a name of its own when it cannot be hashed. */
  private static String contentKey(Object value) {
    try {
      return "h" + Joblib.hash(value);
    } catch (RuntimeException | LinkageError unhashable) {
      return "u" + UUID.randomUUID().toString().replace("-", "");
    }
  }

  /** The jar: one stored (uncompressed) entry, the value Java-serialized; returns its size. */
  private long writeJar(Path jar, String resource, Object value) throws IOException {
    long[] count = {0};
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.setLevel(Deflater.NO_COMPRESSION); // already-compact data dominates; deflating 400 MB costs seconds
      out.putNextEntry(new ZipEntry(resource));
      OutputStream counted = new FilterOutputStream(out) {
        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
          count[0] += len;
        }

        @Override
        public void write(int b) throws IOException {
          out.write(b);
          count[0]++;
        }

        @Override
        public void close() {
          // the jar closes the entry
        }
      };
      try (ObjectOutputStream objects = new ObjectOutputStream(counted) {
        @Override
        protected void annotateClass(Class<?> type) {
          code.note(type);
        }
      }) {
        objects.writeObject(value);
      }
      out.closeEntry();
    }
    return count[0];
  }

  @Override
  public void close() {
    synchronized (this) {
      shared.clear();
      small.clear();
    }
  }
}
