package io.joblib4j.cli;

import io.joblib4j.cli.internal.Context;
import io.joblib4j.cli.internal.HadoopSettings;
import io.joblib4j.cli.internal.Location;
import io.joblib4j.spi.Store;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** LOCATION and {@code --conf}, shared by every command. */
final class LocationOptions {
  @Parameters(index = "0", paramLabel = "LOCATION",
      description = "the cache: a path, file:/..., hdfs://namenode:8020/..., or any Hadoop FileSystem URI")
  String location;

  @Option(names = "--conf", paramLabel = "KEY=VALUE",
      description = "a Hadoop setting, over HADOOP_CONF_DIR's core-site.xml and hdfs-site.xml (repeatable)")
  List<String> conf = new ArrayList<>();

  Store open() {
    Context c = Context.current();
    HadoopSettings.checkPairs(conf);
    // read lazily: a local cache needs no Hadoop configuration (its classes and XML cost a JVM ~0.3 s)
    return Location.open(location, () -> HadoopSettings.configuration(c.environment(), conf));
  }
}
