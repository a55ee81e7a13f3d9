package io.joblib4j.cli.internal;

import io.joblib4j.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration of a run: the class path's {@code core-site.xml} (as {@code new
 * Configuration()} reads it), then {@code $HADOOP_CONF_DIR}'s {@code core-site.xml} and {@code
 * hdfs-site.xml} (as the {@code hadoop} command reads them), then every {@code --conf key=value}.
 */
public final class HadoopSettings {
  /** Site files read from {@code HADOOP_CONF_DIR}, in this order. */
  static final List<String> SITE_FILES = List.of("core-site.xml", "hdfs-site.xml");

  private HadoopSettings() {}

  public static Configuration configuration(Map<String, String> environment, List<String> conf) {
    Configuration c = new Configuration();
    String dir = environment.get("HADOOP_CONF_DIR");
    if (dir != null && !dir.isBlank()) {
      Path folder = Path.of(dir);
      if (!Files.isDirectory(folder)) {
        throw new CliException(Main.USAGE, "HADOOP_CONF_DIR=" + dir + " is not a folder");
      }
      for (String site : SITE_FILES) {
        Path f = folder.resolve(site);
        if (Files.isRegularFile(f)) {
          c.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
        }
      }
    }
    // a NameNode that is down: fail within seconds, not after Hadoop's 10 connection retries
    setIfAbsent(c, "ipc.client.connect.max.retries", "1");
    setIfAbsent(c, "ipc.client.connect.max.retries.on.timeouts", "1");
    setIfAbsent(c, "ipc.client.connect.timeout", "5000");
    checkPairs(conf);
    for (String kv : conf) {
      int eq = kv.indexOf('=');
      c.set(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    return c;
  }

  /** Refuses a {@code --conf} that is not {@code key=value}, before anything is read (local paths need no Hadoop). */
  public static void checkPairs(List<String> conf) {
    for (String kv : conf) {
      if (kv.indexOf('=') <= 0) {
        throw new CliException(Main.USAGE, "--conf " + kv + ": expected key=value, e.g. --conf fs.defaultFS=hdfs://nn:8020");
      }
    }
  }

  private static void setIfAbsent(Configuration c, String key, String value) {
    if (isDefaultOnly(c, key)) {
      c.set(key, value, "joblib4j command line default");
    }
  }

  private static boolean isDefaultOnly(Configuration c, String key) {
    String[] sources = c.getPropertySources(key);
    if (sources == null) {
      return true;
    }
    for (String s : sources) {
      if (!s.endsWith("-default.xml")) {
        return false;
      }
    }
    return true;
  }
}
