package io.joblib4j.hdfs.s3;

import io.joblib4j.hdfs.internal.HadoopStoreOpener;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A writer in a JVM of its own, for the racing and killed-writer ITs: publishes one entry of two
 * files (a large {@code output} and a small {@code metadata.json}) and prints the outcome.
 *
 * <p>Arguments: endpoint, location, conditional writes (true/false), entry, the byte {@code output}
 * is filled with, a file to wait for before publishing (a start line shared by racing JVMs; "-" for
 * none), and the file during whose writing the JVM halts (as if killed; "-" for none).
 */
public final class S3Writer {
  static final int OUTPUT_BYTES = 3 << 20;

  private S3Writer() {}

  public static void main(String[] args) throws Exception {
    URI endpoint = URI.create(args[0]);
    URI location = URI.create(args[1]);
    boolean conditional = Boolean.parseBoolean(args[2]);
    String entry = args[3];
    byte fill = Byte.parseByte(args[4]);
    Path start = args[5].equals("-") ? null : Path.of(args[5]);
    String haltIn = args[6];
    Configuration conf = S3Server.conf(endpoint, conditional);
    Map<String, Object> options = new HashMap<>(Map.of("localCacheDir", Files.createTempDirectory("s3writer").toString()));
    try (Store store = HadoopStoreOpener.open(location, conf, options)) {
      System.out.println("READY");
      System.out.flush();
      while (start != null && !Files.exists(start)) {
        // racing JVMs start together: a shared start line, looked at every 0.1 ms. Not a busy spin:
        // on two cores it would take one from the other writer, still starting
        java.util.concurrent.locks.LockSupport.parkNanos(100_000);
      }
      List<EntryFile> files = List.of(file("output", haltIn, out -> {
        byte[] chunk = new byte[64 << 10];
        java.util.Arrays.fill(chunk, fill);
        for (int i = 0; i < OUTPUT_BYTES / chunk.length; i++) {
          out.write(chunk);
        }
      }), file("metadata.json", haltIn, out -> out.write(("{\"fill\":" + fill + "}").getBytes())));
      Store.Publication p = store.publish(entry, files);
      System.out.println("RESULT " + p);
    }
  }

  private static EntryFile file(String name, String haltIn, EntryFile.Writer writer) {
    return new EntryFile(name, out -> {
      if (name.equals(haltIn)) {
        out.write(1);
        out.flush();
        Runtime.getRuntime().halt(3); // killed in the middle of this file
      }
      writer.writeTo(out);
    });
  }
}
