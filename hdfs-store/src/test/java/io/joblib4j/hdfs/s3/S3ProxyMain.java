package io.joblib4j.hdfs.s3;

/**
 * The S3Proxy child's main class: S3Proxy's own main, plus a watch on standard input, so that the
 * server also ends when the test JVM that started it dies without stopping it (its end of the pipe
 * closes). Uses only the JDK: it runs on S3Proxy's class path, not the tests'.
 */
public final class S3ProxyMain {
  private S3ProxyMain() {}

  public static void main(String[] args) throws Exception {
    Thread watch = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // nothing is sent; end of input is the signal
        }
      } catch (java.io.IOException e) {
        // the pipe broke: the parent is gone as well
      }
      Runtime.getRuntime().halt(0);
    }, "parent-watch");
    watch.setDaemon(true);
    watch.start();
    Class.forName("org.gaul.s3proxy.Main").getMethod("main", String[].class).invoke(null, (Object) args);
  }
}
