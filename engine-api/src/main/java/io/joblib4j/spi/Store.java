package io.joblib4j.spi;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Where {@code Memory} keeps its entries: local disk (built in), HDFS and other Hadoop
 * FileSystems ({@code joblib4j-hdfs-store}), or anything a user implements. It speaks plain
 * relative path strings and byte streams — no Hadoop or other storage types — so any storage can
 * implement it.
 *
 * <h2>Paths</h2>
 *
 * Paths are relative to the store's root and {@code /}-separated, like {@code
 * "Scorer.score-1a2b3c4d/5f0e.../output.jl4j"}. Every segment matches {@code [A-Za-z0-9._-]+} and is
 * neither {@code .} nor {@code ..}; {@link io.joblib4j.spi.support.StorePaths#check} enforces it. A store never reads,
 * writes or deletes anything outside its root, and never follows a symbolic link planted inside it.
 *
 * <h2>What a store guarantees</h2>
 *
 * <ol>
 *   <li><b>Atomic publish.</b> {@link #publish} makes an entry — a directory of files — visible all
 *       at once: a reader sees either no file of the entry or every file, complete. Never a partial
 *       file, never a subset.
 *   <li><b>Create if absent.</b> If the entry already exists, {@code publish} leaves it untouched and
 *       returns {@link Publication#ALREADY_PRESENT}. Of several writers publishing one entry at the
 *       same time (threads, JVMs, hosts, a Spark task and its speculative copy) at most one gets
 *       {@link Publication#PUBLISHED} and what every reader sees afterwards is that writer's
 *       content. (Memory writes the same bytes for the same key, so which writer wins does not
 *       matter; that none is partial does.)
 *   <li><b>Immutability.</b> A published entry never changes until it is deleted; in particular it is
 *       never truncated or overwritten while a reader has it open or mapped.
 *   <li><b>Failed writers leave nothing visible.</b> If a writer fails or dies during {@code
 *       publish}, the entry stays absent; its temporaries are removed at once when possible, and by
 *       {@link #sweep} otherwise.
 *   <li><b>Atomic replace</b> of small files ({@link #replace}): readers see the old content or the
 *       new one.
 *   <li><b>Idempotent delete</b> of files and whole directories.
 * </ol>
 *
 * The abstract {@code StoreContractTest} in joblib4j-engine-api's test jar checks all of these;
 * every store runs it.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface Store extends AutoCloseable {

  /**
   * The store's root, e.g. {@code file:/home/me/cache} or {@code hdfs://nn:8020/cache}.
   *
   * @return the root's URI
   */
  URI location();

  /**
   * Reads a file; empty if it does not exist.
   *
   * @param path a relative path in the store
   * @return a stream the caller closes, or empty
   * @throws IOException if the store cannot be reached or read
   */
  Optional<InputStream> open(String path) throws IOException;

  /**
   * A file on this machine's local disk holding exactly the bytes of {@code path}, so that it can be
   * memory-mapped: the file itself for a local store, a verified local copy for a remote one.
   * Empty if {@code path} does not exist. The caller must not modify it.
   *
   * @param path a relative path in the store
   * @return the local file, or empty
   * @throws IOException if the store cannot be reached or read
   */
  Optional<Path> localFile(String path) throws IOException;

  /**
   * Publishes the entry {@code entry} (a directory) with {@code files}, atomically and only if it
   * does not exist yet (see the class documentation).
   *
   * @param entry the entry's directory, a relative path
   * @param files its files
   * @return whether this writer published it or found it there
   * @throws IOException if the entry could not be written; it is then absent
   */
  Publication publish(String entry, List<EntryFile> files) throws IOException;

  /**
   * Writes a small file, replacing any previous content atomically.
   *
   * @param path a relative path in the store
   * @param content the new content
   * @throws IOException if it could not be written; the old content is then kept
   */
  void replace(String path, byte[] content) throws IOException;

  /**
   * Whether a file or directory exists at {@code path}.
   *
   * @param path a relative path in the store
   * @return whether it exists
   * @throws IOException if the store cannot be reached or read
   */
  boolean exists(String path) throws IOException;

  /**
   * Everything under the directory {@code dir} ({@code ""} for the root), recursively, with sizes and
   * modification times; paths are relative to the root. Empty if {@code dir} does not exist.
   * Temporaries of writers in progress are not listed.
   *
   * @param dir a relative directory path
   * @return the files and directories under it
   * @throws IOException if the store cannot be reached or read
   */
  List<StoreFile> list(String dir) throws IOException;

  /**
   * The files and directories directly inside the directory {@code dir} ({@code ""} for the root),
   * like {@link #list} but one level deep: what {@code Memory.clear} looks at to find the folders it
   * owns without walking every entry. Empty if {@code dir} does not exist. The default filters
   * {@link #list}; stores override it to list one directory only.
   *
   * @param dir a relative directory path
   * @return the files and directories directly in it
   * @throws IOException if the store cannot be reached or read
   */
  default List<StoreFile> children(String dir) throws IOException {
    String prefix = dir.isEmpty() ? "" : dir + "/";
    return list(dir).stream().filter(f -> f.path().indexOf('/', prefix.length()) < 0).toList();
  }

  /**
   * Records that the entry {@code entry} was read at {@code accessedAt}, so that {@code
   * Memory.reduceSize} deletes the least recently used entries first: afterwards {@link #list}
   * reports the entry directory with that {@link StoreFile#lastModified()}. Stores may make this
   * coarse (skip updates closer than a minute apart, say) to keep cache hits cheap.
   *
   * @param entry the entry's directory
   * @param accessedAt when it was read
   * @throws IOException if the store cannot be reached or read
   */
  void touch(String entry, java.time.Instant accessedAt) throws IOException;

  /**
   * Deletes the file or directory {@code path} with everything under it; absent is fine.
   *
   * @param path a relative path in the store
   * @throws IOException if it could not be deleted
   */
  void delete(String path) throws IOException;

  /**
   * Deletes the directory {@code dir} only if it holds nothing at all, not even what {@link #list}
   * leaves out (a symbolic link, a file of another tool): how upkeep removes a folder of its own
   * without taking what a user put in it. Absent is fine. The default lists the directory first, and
   * so cannot see what a listing hides; a store whose listings hide anything overrides it with an
   * atomic "remove if empty" (the local store's {@code rmdir}, a Hadoop {@code delete(path, false)}).
   *
   * @param dir a relative path in the store
   * @return whether it is gone (it was empty, or absent)
   * @throws IOException if it could not be read or deleted
   */
  default boolean deleteIfEmpty(String dir) throws IOException {
    if (!exists(dir)) {
      return true;
    }
    if (!list(dir).isEmpty()) {
      return false;
    }
    delete(dir);
    return true;
  }

  /**
   * Removes temporaries left by writers that died, if older than {@code age} (younger ones may
   * belong to a writer still at work). Returns how many were removed.
   *
   * @param age the age below which a temporary is left alone
   * @return the number of temporaries removed
   * @throws IOException if the store cannot be reached or read
   */
  int sweep(Duration age) throws IOException;

  /**
   * The temporaries of writers in progress or dead (what {@link #list} leaves out and {@link #sweep}
   * removes) older than {@code age}, with their sizes and modification times, so that a check of the
   * cache can report those a dead writer left. The default reports none; stores override it.
   *
   * @param age the age below which a temporary is left out (it may belong to a writer still at work)
   * @return the temporaries, by their paths relative to the root
   * @throws IOException if the store cannot be reached or read
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  default List<StoreFile> temporaries(Duration age) throws IOException {
    return List.of();
  }

  /** Releases connections or caches; idempotent. */
  @Override
  void close();

  /** The outcome of {@link #publish}. */
  @API(status = API.Status.MAINTAINED, since = "0.1")
  enum Publication {
    /** This writer's entry is now visible. */
    PUBLISHED,
    /** The entry existed already (another writer won); it was left untouched. */
    ALREADY_PRESENT
  }
}
