package io.joblib4j.hdfs.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3Proxy (a real S3 API server) in a JVM of its own, on a free loopback port, keeping objects in a
 * folder of its own (the filesystem-nio2 backend, whose conditional PUTs are atomic), with one
 * bucket. Its class path is the one the s3proxy-server module writes, so that none of S3Proxy's
 * libraries meet the tests' Hadoop. Starting one takes a few seconds: the ITs of a JVM share one
 * ({@link #shared()}), each in folders of its own.
 */
public final class S3Server implements AutoCloseable {
  public static final String ACCESS_KEY = "joblib4j";
  public static final String SECRET_KEY = "joblib4j-secret";
  public static final String BUCKET = "joblib4j-tests";
  private static final long START_TIMEOUT_MILLIS = 120_000;
  private static S3Server shared;

  private final Process process;
  private final int port;
  private final Path dir;
  private final Path data;
  /** In front of the server when it ignores If-None-Match, else null. */
  private FrontProxy front;
  /** The S3A capability, once asked. */
  private Boolean clientCreatesConditionally;

  private S3Server(Process process, int port, Path dir, Path data) {
    this.process = process;
    this.port = port;
    this.dir = dir;
    this.data = data;
  }

  /** The JVM's shared server, stopped when the JVM ends. */
  public static synchronized S3Server shared() {
    if (shared == null) {
      shared = start();
      Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "s3proxy-stop"));
    }
    return shared;
  }

  /** A new server with an empty bucket; the caller closes it. */
  public static S3Server start() {
    return start(null, false, false);
  }

  /**
   * A new server with an empty bucket behind a {@link FrontProxy} that counts every request it
   * passes ({@link #requests()}), from whichever JVM; the caller closes it. That S3Proxy checks no
   * signature (the proxy rewrites the Connection header).
   */
  public static S3Server startCounting() {
    return start(null, true, false);
  }

  /**
   * A new server with an empty bucket that ignores {@code If-None-Match}: S3Proxy behind a {@link
   * FrontProxy} that drops it, so a conditional PUT of a taken name replaces the object and succeeds, as
   * on an S3-compatible store without conditional writes while S3A believes it has them. That
   * S3Proxy checks no signature (the header dropped was signed); the caller closes it.
   */
  public static S3Server startIgnoringIfNoneMatch() {
    return start(null, true, true);
  }

  /**
   * A second server over this one's objects that refuses every write (S3Proxy's read-only blob
   * store answers each PUT, POST, DELETE and COPY with an error): what a reader holding read-only
   * credentials meets. The caller closes it.
   */
  public S3Server readOnlyView() {
    return start(data, false, false);
  }

  /** A server keeping its objects in a new folder with a new bucket, or read-only over {@code data}. */
  private static S3Server start(Path readOnlyData, boolean behindProxy, boolean ignoreIfNoneMatch) {
    try {
      Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "s3proxy-");
      Path data = readOnlyData != null ? readOnlyData : Files.createDirectories(dir.resolve("data"));
      int port = freePort();
      Path props = dir.resolve("s3proxy.properties");
      Files.writeString(props, String.join("\n",
          "s3proxy.endpoint=http://127.0.0.1:" + port,
          "s3proxy.authorization=" + (behindProxy ? "none" : "aws-v2-or-v4"),
          "s3proxy.identity=" + ACCESS_KEY,
          "s3proxy.credential=" + SECRET_KEY,
          "jclouds.identity=" + ACCESS_KEY,
          "jclouds.credential=" + SECRET_KEY,
          "jclouds.provider=filesystem-nio2",
          "jclouds.filesystem.basedir=" + data,
          "s3proxy.read-only-blobstore=" + (readOnlyData != null)) + "\n");
      Path logConfig = dir.resolve("logback.xml");
      Files.writeString(logConfig, "<configuration><appender name=\"o\" class=\"ch.qos.logback.core.ConsoleAppender\">"
          + "<encoder><pattern>%d %level %logger{20} %msg%n</pattern></encoder></appender>"
          + "<root level=\"WARN\"><appender-ref ref=\"o\"/></root></configuration>\n");
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Dlogback.configurationFile=" + logConfig,
          "-cp", classPath(), S3ProxyMain.class.getName(), "--properties", props.toString()));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(dir.resolve("s3proxy.log").toFile()).start();
      S3Server server = new S3Server(p, port, dir, data);
      try {
        server.awaitListening();
        if (behindProxy) {
          server.front = new FrontProxy(port, ignoreIfNoneMatch);
        }
        if (readOnlyData == null) {
          server.createBucket(BUCKET);
        }
      } catch (IOException | RuntimeException e) {
        server.close();
        throw e;
      }
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start S3Proxy", e);
    }
  }

  /** S3Proxy's class path (written by the s3proxy-server module) and this class's folder, for {@link S3ProxyMain}. */
  private static String classPath() throws IOException {
    String file = System.getProperty("joblib4j.it.s3proxyClasspathFile", "../s3proxy-server/target/server.classpath");
    Path list = Path.of(file);
    if (!Files.isRegularFile(list)) {
      throw new IllegalStateException("S3Proxy's class path file " + list.toAbsolutePath() + " is missing: build"
          + " with the reactor (mvn -pl hdfs-store -am ...), whose s3proxy-server module writes it");
    }
    String own;
    try {
      own = Path.of(S3ProxyMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return Files.readString(list, StandardCharsets.UTF_8).trim() + java.io.File.pathSeparator + own;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Waits until the server accepts connections (it answers HTTP once started), or fails if it died. */
  private void awaitListening() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
        return;
      } catch (IOException notYet) {
        if (!process.isAlive()) {
          throw new IOException("S3Proxy exited with " + process.exitValue() + " before listening: see " + log());
        }
        if (System.nanoTime() - deadline > 0) {
          throw new IOException("S3Proxy did not listen on port " + port + " within " + START_TIMEOUT_MILLIS
              + " ms: see " + log());
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while S3Proxy started");
        }
      }
    }
  }

  /** Creates a bucket with the AWS SDK (S3A does not create buckets). */
  public void createBucket(String name) {
    try (S3Client s3 = client()) {
      s3.createBucket(b -> b.bucket(name));
    }
  }

  /** A plain AWS SDK client of this server. */
  public S3Client client() {
    return S3Client.builder().endpointOverride(endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + (front != null ? front.port() : port));
  }

  /** {@code s3a://bucket/<prefix>-<random>}: a folder no other test uses. */
  public URI newLocation(String prefix) {
    return URI.create("s3a://" + BUCKET + "/" + prefix + "-" + UUID.randomUUID());
  }

  /**
   * S3A settings for this server.
   *
   * @param conditionalWrites S3A's conditional create ({@code If-None-Match: *}), on by default in
   *     hadoop-aws 3.5.0 and absent before 3.4.2
   */
  public Configuration conf(boolean conditionalWrites) {
    return conf(endpoint(), conditionalWrites);
  }

  /** S3A settings for the server at {@code endpoint} (for child JVMs, which get the endpoint as an argument). */
  public static Configuration conf(URI endpoint, boolean conditionalWrites) {
    Configuration c = new Configuration();
    c.set("fs.s3a.endpoint", endpoint.toString());
    c.set("fs.s3a.endpoint.region", "us-east-1");
    c.setBoolean("fs.s3a.path.style.access", true);
    c.setBoolean("fs.s3a.connection.ssl.enabled", false);
    c.set("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    c.set("fs.s3a.access.key", ACCESS_KEY);
    c.set("fs.s3a.secret.key", SECRET_KEY);
    c.setBoolean("fs.s3a.create.conditional.enabled", conditionalWrites);
    // a test's folders are its own: no FileSystem instance shared with another test
    c.setBoolean("fs.s3a.impl.disable.cache", true);
    return c;
  }

  /**
   * Whether the S3A on this class path creates conditionally when asked ({@code If-None-Match: *}):
   * hadoop-aws 3.4.2 and later do; 3.3.x, which Spark 3.5 ships, and 3.4.1 do not, and there
   * {@code conf(true)} is the same as {@code conf(false)}. Asked as the store asks, with {@code
   * hasPathCapability}.
   */
  public synchronized boolean clientCreatesConditionally() {
    if (clientCreatesConditionally == null) {
      clientCreatesConditionally = askClientWhetherItCreatesConditionally();
    }
    return clientCreatesConditionally;
  }

  private boolean askClientWhetherItCreatesConditionally() {
    try (org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.newInstance(newLocation("capability"),
        conf(true))) {
      return fs.hasPathCapability(new org.apache.hadoop.fs.Path("/"), "fs.option.create.conditional.overwrite");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot ask S3A for its capabilities", e);
    }
  }

  /**
   * Skips a case that asks for conditional writes where the S3A on the class path has none: there
   * asking for them changes nothing, and the same case without them runs beside it.
   */
  public static void skipWhereAskingForConditionalWritesChangesNothing(boolean conditionalWrites) {
    org.junit.jupiter.api.Assumptions.assumeTrue(!conditionalWrites || shared().clientCreatesConditionally(),
        "this S3A has no conditional create (hadoop-aws before 3.4.2): the case without it covers this one");
  }

  /** The folder the server keeps the bucket's objects in (one file per object). */
  public Path bucketDir() {
    return data.resolve(BUCKET);
  }

  public Path log() {
    return dir.resolve("s3proxy.log");
  }

  /** How many requests had their If-None-Match dropped (0 for a server that honours it). */
  public int ifNoneMatchDropped() {
    return front == null ? 0 : front.stripped();
  }

  /** The requests made so far, by kind ({@link FrontProxy#requests()}); only for {@link #startCounting()}'s server. */
  public Map<String, Long> requests() {
    if (front == null) {
      throw new IllegalStateException("only a server started with startCounting() counts requests");
    }
    return front.requests();
  }

  @Override
  public void close() {
    if (front != null) {
      try {
        front.close();
      } catch (IOException e) {
        // the proxy's socket: nothing to do
      }
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
