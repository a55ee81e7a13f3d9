package io.joblib4j.hdfs.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * An in-process object store with S3's semantics, on a local folder, registered as {@code fakeobj:}
 * (with {@code fakeobj.rules=abfs} or {@code gcs}, the rules of those stores instead: {@link Rules}):
 *
 * <ul>
 *   <li>an object appears whole when its writer closes it (the bytes are buffered until then), and
 *       {@code create(overwrite=false)} fails if the object exists — at create and again at close,
 *       as a conditional PUT ({@code If-None-Match: *}) does;
 *   <li>rename is a copy of each file followed by a delete, file by file, so others can see it half
 *       done (a pause between files makes that likely);
 *   <li>streams are not Syncable, and modification times cannot be set.
 * </ul>
 */
public class FakeObjectStore extends RawLocalFileSystem {
  public static final String SCHEME = "fakeobj";
  /** One lock for "the service": makes each object write and each metadata read atomic. */
  private static final Object SERVICE = new Object();
  static volatile long renamePauseMillis = 20;
  /** Objects being uploaded: not objects yet, so never listed. */
  private static final String STAGING = ".fakeobj-upload-";

  /** Hadoop settings that make {@code fakeobj:///some/local/folder} this file system. */
  public static Configuration register(Configuration conf) {
    conf.set("fs." + SCHEME + ".impl", FakeObjectStore.class.getName());
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
    return conf;
  }

  /**
   * The rules of the object store imitated, as its documentation states them ({@code fakeobj.rules}).
   * What differs is when a create that must not overwrite is decided, and what is visible meanwhile.
   */
  enum Rules {
    /** S3 with conditional writes: an object appears whole at close, where If-None-Match is checked. */
    S3,
    /**
     * ABFS: If-None-Match is applied when the file is created, so the loser learns it at create, and
     * an empty file is visible from then until the writer's close (flush) puts its bytes there.
     */
    ABFS,
    /** GCS: the upload is finalized with {@code ifGenerationMatch=0}, atomically, at close. */
    GCS
  }

  private Rules rules() {
    return getConf() == null ? Rules.S3 : Rules.valueOf(getConf().get("fakeobj.rules", "s3").toUpperCase(java.util.Locale.ROOT));
  }

  /**
   * With {@code fakeobj.exclusive-create=false} the existence check of {@code create(overwrite=false)}
   * happens at create only, as on S3 without conditional writes: two writers can both pass it.
   */
  private boolean exclusiveCreate() {
    return getConf() == null || getConf().getBoolean("fakeobj.exclusive-create", true);
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    if (!overwrite && rules() == Rules.ABFS) {
      synchronized (SERVICE) { // decided at create, and the empty file is there for all to see
        java.nio.file.Path file = pathToFile(f).toPath();
        Files.createDirectories(file.getParent());
        try {
          Files.createFile(file);
        } catch (java.nio.file.FileAlreadyExistsException e) {
          throw new FileAlreadyExistsException(f + " already exists (If-None-Match at create)");
        }
      }
      return new FSDataOutputStream(new Upload(f, true), null);
    }
    if (!overwrite && exists(f)) {
      throw new FileAlreadyExistsException(f + " already exists");
    }
    return new FSDataOutputStream(new Upload(f, overwrite || !exclusiveCreate()), null);
  }

  @Override
  public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    return create(f, null, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> flags, int bufferSize,
      short replication, long blockSize, Progressable progress, ChecksumOpt checksumOpt) throws IOException {
    return create(f, permission, flags.contains(CreateFlag.OVERWRITE), bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    return create(f, permission, flags.contains(CreateFlag.OVERWRITE), bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    synchronized (SERVICE) {
      return super.open(f, bufferSize);
    }
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    synchronized (SERVICE) {
      return super.getFileStatus(f);
    }
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    synchronized (SERVICE) {
      return java.util.Arrays.stream(super.listStatus(f))
          .filter(st -> !st.getPath().getName().startsWith(STAGING)).toArray(FileStatus[]::new);
    }
  }

  @Override
  public boolean delete(Path p, boolean recursive) throws IOException {
    synchronized (SERVICE) {
      return super.delete(p, recursive);
    }
  }

  /** Copy, then delete, one file at a time: what an object store's rename really is. */
  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    FileStatus st = getFileStatus(src);
    if (st.isDirectory()) {
      mkdirs(dst);
      for (FileStatus child : listStatus(src)) {
        rename(child.getPath(), new Path(dst, child.getPath().getName()));
        pause();
      }
      return delete(src, true);
    }
    synchronized (SERVICE) {
      Files.createDirectories(pathToFile(dst).toPath().getParent());
      Files.copy(pathToFile(src).toPath(), pathToFile(dst).toPath(), StandardCopyOption.REPLACE_EXISTING);
      return super.delete(src, false);
    }
  }

  @Override
  public void setTimes(Path p, long mtime, long atime) {
    // object stores cannot set modification times: a no-op, as on S3A
  }

  private static void pause() {
    try {
      Thread.sleep(renamePauseMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Bytes buffered until close, then committed in one step (or refused if the object appeared). */
  private final class Upload extends ByteArrayOutputStream {
    private final Path target;
    private final boolean overwrite;
    private boolean closed;

    Upload(Path target, boolean overwrite) {
      this.target = target;
      this.overwrite = overwrite;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      java.nio.file.Path file = pathToFile(target).toPath();
      Files.createDirectories(file.getParent());
      // a new inode moved into place: readers that opened the old object keep reading it, as on S3
      java.nio.file.Path staged = file.resolveSibling(STAGING + java.util.UUID.randomUUID());
      Files.write(staged, toByteArray());
      synchronized (SERVICE) {
        try {
          if (!overwrite && Files.exists(file)) {
            throw new FileAlreadyExistsException(target + " was created by another writer first");
          }
          Files.move(staged, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
          Files.deleteIfExists(staged);
        }
      }
    }
  }

  /** A store on this file system at {@code dir}/bucket, under the named {@link Rules}, copies in {@code dir}/copies. */
  static io.joblib4j.spi.Store openStore(java.nio.file.Path dir, Rules rules) throws IOException {
    Configuration conf = register(new Configuration());
    conf.set("fakeobj.rules", rules.name().toLowerCase(java.util.Locale.ROOT));
    return HadoopStoreOpener.open(location(dir.resolve("bucket")), conf,
        java.util.Map.of("localCacheDir", dir.resolve("copies").toString()));
  }

  /** A store location on this file system for a local folder. */
  static URI location(java.nio.file.Path folder) {
    return URI.create(SCHEME + "://" + folder.toAbsolutePath().toUri().getPath());
  }
}
