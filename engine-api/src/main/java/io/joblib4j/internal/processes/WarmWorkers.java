package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.spi.support.OwnerOnlyFolders;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StreamCorruptedException;
import java.net.ConnectException;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Workers that outlive the program that started them ({@code keepWarm}, off by default): when this
 * JVM exits, its idle workers are parked instead of killed (and an idle worker whose parent ends
 * without a word, still starting or killed, parks itself). Each then listens on a Unix-domain
 * socket {@code <key>-<pid>.sock} in {@code <java.io.tmpdir>/joblib4j-warm-<user>} for {@code
 * keepWarm}, and exits if no program adopts it by then. The next program whose workers would be
 * started the same way connects there instead of starting a JVM: a short program's first call
 * skips the quarter of a second a worker JVM takes to start (loky's workers start in a tenth of that).
 *
 * <p>The key is a digest of everything a worker's behaviour depends on that it cannot take from its
 * adopter: the JDK, the JVM options, each class path jar's path, size and modification time, each
 * class path folder's path (its parked workers watch its files themselves: {@link FolderGuard}), the
 * environment the worker was given, the working folder, the thread budget and the depth of
 * nesting. What a call needs from its parent arrives with the adoption (the folder for spilled
 * results, a fresh token) or with each batch, as it does for a worker the program started itself.
 *
 * <p>Safety as for a worker's first connection: the folder is this user's alone ({@code rwx------},
 * checked, not assumed), so no other user can connect; an adopter must name the worker's key, and
 * the worker proves the adopter's fresh 256-bit token back in its HELLO. The first adopter wins:
 * the worker stops listening and deletes its socket before it answers.
 */
final class WarmWorkers {
  private static final LazyLogger LOG = LazyLogger.of(WarmWorkers.class);
  /** Starts the ADOPT message, so that anything else connecting is told apart at once. */
  static final int ADOPT_MAGIC = 0x4a4c5741;
  /** An ADOPT message is small; a larger length means the peer is not an adopter. */
  static final int MAX_ADOPT = 64 << 10;
  /** How long a parked worker gives a connection to say ADOPT, and an adopter the worker to say HELLO. */
  static final Duration HANDSHAKE = Duration.ofSeconds(2);
  /** The environment variable that gives a worker its {@link Note} at launch. */
  static final String PARK_VARIABLE = "JOBLIB4J_WORKER_PARK";
  /** sun_path holds 108 bytes on Linux, 104 on macOS, with the terminating zero. */
  private static final int MAX_SOCKET_PATH = 100;
  private static final Map<PoolKey, String> KEYS = new ConcurrentHashMap<>();
  private static final Map<List<String>, String> SAME_FOR_THE_JVM = new ConcurrentHashMap<>();
  /** Sockets a thread of this JVM is adopting from, so that two of its workers never try the same. */
  private static final Set<Path> CLAIMED = ConcurrentHashMap.newKeySet();
  private static volatile Optional<Path> folder;
  private static final AtomicBoolean PREFETCHED = new AtomicBoolean();

  private WarmWorkers() {}

  /**
   * Readies on a thread of its own, from the backend's creation, what a fresh JVM's first adoption
   * would otherwise pay on its call's path (some 60 ms, on the same cores as the call): the
   * folder's check, the JDK's Unix-domain sockets (whose class initialization seeds a {@code
   * SecureRandom}), and the digest of what all pools of this JVM share (the class path's jar
   * manifests, the environment) for the key.
   */
  static void prefetch(ClassLoader loader) {
    if (PREFETCHED.getAndSet(true)) {
      return;
    }
    Thread t = new Thread(() -> {
      try {
        folder();
        java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX).close();
        sameForTheJvm(WorkerClasspath.of(loader).entries());
      } catch (IOException | RuntimeException e) {
        // the adoption itself finds out and says so
      }
    }, "joblib4j-warm-workers");
    t.setDaemon(true);
    t.start();
  }

  /**
   * What a worker needs to know to park: its key, the folder of parked workers, and how long to
   * wait there. Sent with PARK, and given at launch in {@link #PARK_VARIABLE} so that a worker whose
   * program ended without a word (still starting as it exited, or killed) parks too, if idle.
   */
  record Note(String key, Path folder, long keepMillis) {
    /** The socket a worker with {@code pid} parks at, or empty if that path is too long for a socket. */
    Optional<Path> socket(long pid) {
      return socketFor(folder, key, pid);
    }

    byte[] encode() {
      return (key + "\n" + folder + "\n" + keepMillis).getBytes(StandardCharsets.UTF_8);
    }

    static Note decode(byte[] note) throws StreamCorruptedException {
      String[] parts = new String(note, StandardCharsets.UTF_8).split("\n", -1);
      try {
        if (parts.length == 3 && !parts[0].isEmpty() && !parts[1].isEmpty()) {
          return new Note(parts[0], Path.of(parts[1]), Long.parseLong(parts[2]));
        }
      } catch (RuntimeException e) {
        // told below
      }
      throw new StreamCorruptedException("bad park note from the parent");
    }
  }

  /** The note for workers of {@code pool}, or null where they cannot be kept warm. */
  static Note noteFor(PoolKey pool) {
    Optional<Path> dir = folder();
    String key = dir.isPresent() ? key(pool) : null;
    return key == null ? null : new Note(key, dir.get(), pool.keepWarm().toMillis());
  }

  /** What an adopter sends first on a parked worker's socket. */
  record Adopt(String key, long parentPid, String resultsDir, byte[] token) {
    byte[] encode() {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeInt(ADOPT_MAGIC);
        ByteArrayOutputStream body = new ByteArrayOutputStream(256);
        DataOutputStream b = new DataOutputStream(body);
        b.writeUTF(key);
        b.writeLong(parentPid);
        b.writeUTF(resultsDir);
        b.writeInt(token.length);
        b.write(token);
        out.writeInt(body.size());
        body.writeTo(out);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e); // in memory: does not happen
      }
      return bytes.toByteArray();
    }

    /** Reads an ADOPT message, never more than {@link #MAX_ADOPT} bytes, whatever the peer claims. */
    static Adopt read(InputStream input) throws IOException {
      DataInputStream in = new DataInputStream(input);
      if (in.readInt() != ADOPT_MAGIC) {
        throw new StreamCorruptedException("not an ADOPT message");
      }
      int length = in.readInt();
      if (length < 1 || length > MAX_ADOPT) {
        throw new StreamCorruptedException("bad ADOPT length " + length);
      }
      byte[] body = new byte[length];
      in.readFully(body);
      DataInputStream b = new DataInputStream(new java.io.ByteArrayInputStream(body));
      String key = b.readUTF();
      long pid = b.readLong();
      String results = b.readUTF();
      int tokenLength = b.readInt();
      if (tokenLength < 1 || tokenLength > b.available()) {
        throw new StreamCorruptedException("bad token length " + tokenLength);
      }
      byte[] token = b.readNBytes(tokenLength);
      return new Adopt(key, pid, results, token);
    }
  }

  /**
   * The key workers of {@code pool} park under, or null if they cannot be kept warm: a missing
   * class path entry, a folder named in a jar's manifest, or no digest.
   */
  static String key(PoolKey pool) {
    String k = KEYS.get(pool);
    if (k == null) {
      k = computeKey(pool);
      if (k != null) {
        KEYS.put(pool, k);
      }
    }
    return k;
  }

  private static String computeKey(PoolKey pool) {
    LaunchSpec spec = pool.launch(); // a folder as given, not its content jar: the same key before and after
    try {
      // what is the same for every pool of this JVM and class path was digested once, on the
      // prefetch thread (the class path's manifests are read there)
      SettingsDigest d = new SettingsDigest().add(sameForTheJvm(spec.classpath()));
      d.add(spec.java()).add(Integer.toString(pool.threadBudget()))
          .add(Integer.toString(LaunchSpec.currentDepth() + 1));
      for (String o : spec.jvmOptions()) {
        d.add(o);
      }
      // the workers' environment is this JVM's (in sameForTheJvm), the thread variables the budget
      // sets (the budget is above), and the backend's own variables
      addEnvironment(d, spec.env());
      return "k-" + d.hex();
    } catch (IOException | IllegalArgumentException e) {
      LOG.get().debug("workers of this class path cannot be kept warm", e);
      return null;
    }
  }

  /**
   * The digest of what every pool of this JVM with {@code classpath} shares: the JDK, the working
   * folder, this JVM's environment (but joblib4j's own variables, which differ per worker), and what
   * identifies the class path's content. Once per class path and JVM.
   */
  private static String sameForTheJvm(List<String> classpath) throws IOException {
    synchronized (SAME_FOR_THE_JVM) { // one reading of the manifests: the prefetch's, or the first adopter's
      String digest = SAME_FOR_THE_JVM.get(classpath);
      if (digest == null) {
        SettingsDigest d = new SettingsDigest().add("joblib4j warm worker 3")
            .add(System.getProperty("java.home")).add(System.getProperty("java.vm.version"))
            .add(System.getProperty("user.dir"));
        addClasspath(d, classpath);
        addEnvironment(d, System.getenv());
        digest = d.hex();
        SAME_FOR_THE_JVM.put(classpath, digest);
      }
      return digest;
    }
  }

  /** Adds {@code env} in name order, without joblib4j's own variables (which differ per worker). */
  private static void addEnvironment(SettingsDigest d, Map<String, String> env) {
    Map<String, String> e = new TreeMap<>(env);
    e.remove(WorkerMain.TOKEN_VARIABLE);
    e.remove(WorkerMain.RESULTS_VARIABLE);
    e.remove(PARK_VARIABLE);
    WorkerCds.VARIABLES.forEach(e::remove);
    e.forEach((name, value) -> d.add(name + "=" + value));
  }

  /**
   * What identifies the content of {@code classpath}: each jar (following manifest class paths)
   * with its size and modification time; a folder by its path alone, as walking it would cost a
   * fresh JVM ~90 ms per 6,000 files: a parked worker guards its folders itself ({@link
   * WorkerPark}: it parks only if no file there changed since it started, and leaves at the first
   * change while parked).
   */
  private static void addClasspath(SettingsDigest d, List<String> classpath) throws IOException {
    for (String entry : classpath) {
      Path p = Path.of(entry).toAbsolutePath().normalize();
      if (Files.isDirectory(p)) {
        d.add(p + ":folder");
        continue;
      }
      for (Path jar : WorkerCds.allJars(List.of(p.toString()))) {
        d.addJar(jar);
      }
    }
  }

  /**
   * This user's folder of parked workers' sockets, made {@code rwx------} if absent; empty where it
   * is not a folder owned by this user that only this user may enter, or Unix-domain sockets are
   * not available.
   */
  static Optional<Path> folder() {
    Optional<Path> f = folder;
    if (f == null) {
      f = findFolder(OwnerOnlyFolders.inTemp("joblib4j-warm-"));
      folder = f;
    }
    return f;
  }

  static Optional<Path> findFolder(Path dir) {
    if (!java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return Optional.empty(); // no owner to check: nothing stops another user's program adopting
    }
    return TempFolders.ownersOnly(dir, "workers are not kept warm");
  }

  private static Optional<Path> socketFor(Path folder, String key, long pid) {
    Path p = folder.resolve(key + "-" + pid + ".sock").toAbsolutePath();
    return p.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH ? Optional.of(p) : Optional.empty();
  }

  /**
   * Adopts a worker parked for {@code pool}: connects to its socket, sends ADOPT with {@code token},
   * and returns the link once its HELLO proves the token; null if none is parked or none answered.
   * Sockets of workers that no longer run are deleted on the way.
   */
  static WorkerLink adopt(PoolKey pool, byte[] token, Path resultsDir) {
    Optional<Path> dir = folder();
    String key = dir.isPresent() ? key(pool) : null;
    if (key == null) {
      return null;
    }
    try (DirectoryStream<Path> parked = Files.newDirectoryStream(dir.get(), key + "-*.sock")) {
      for (Path socket : parked) {
        if (!CLAIMED.add(socket)) {
          continue;
        }
        try {
          WorkerLink link = adoptFrom(socket, new Adopt(key, ProcessHandle.current().pid(), resultsDir.toString(),
              token));
          if (link != null) {
            return link;
          }
        } finally {
          CLAIMED.remove(socket);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.get().debug("cannot adopt a parked worker", e);
    }
    return null;
  }

  private static WorkerLink adoptFrom(Path socket, Adopt adopt) {
    java.nio.channels.SocketChannel ch;
    try {
      ch = java.nio.channels.SocketChannel.open(UnixDomainSocketAddress.of(socket));
    } catch (ConnectException e) {
      deleteIfGone(socket);
      return null;
    } catch (IOException e) {
      LOG.get().debug("cannot connect to the parked worker at {}", socket, e);
      return null;
    }
    AtomicBoolean answered = new AtomicBoolean();
    WorkerPools.schedule(() -> {
      if (!answered.get()) {
        ChannelStreams.closeQuietly(ch); // a worker that does not answer is not waited for
      }
    }, HANDSHAKE.toMillis());
    try {
      ChannelStreams.out(ch).write(adopt.encode());
      WorkerLink link = WorkerLink.accept(ChannelStreams.in(ch), ChannelStreams.out(ch), ch);
      answered.set(true);
      if (link.hello().proves(adopt.token()) && link.hello().compatible()) {
        return link;
      }
      link.close();
    } catch (IOException e) {
      answered.set(true);
      ChannelStreams.closeQuietly(ch);
      LOG.get().debug("the parked worker at {} did not take this program", socket, e);
    }
    return null;
  }

  /** Deletes a socket whose worker no longer runs (killed while parked); a live one's stays. */
  private static void deleteIfGone(Path socket) {
    String name = socket.getFileName().toString();
    try {
      long pid = Long.parseLong(name.substring(name.lastIndexOf('-') + 1, name.length() - ".sock".length()));
      if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        return;
      }
      Files.deleteIfExists(socket);
    } catch (IOException | RuntimeException e) {
      LOG.get().debug("cannot delete the stale socket {}", socket, e);
    }
  }
}
