package io.joblib4j.spi.worker;

import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** The {@link WorkerProtocol} engine-api installs, found once, on first use. */
final class InstalledProtocol {
  static final WorkerProtocol PROTOCOL = find();

  private InstalledProtocol() {}

  private static WorkerProtocol find() {
    try {
      Iterator<WorkerProtocol> found = ServiceLoader.load(WorkerProtocol.class, WorkerProtocol.class.getClassLoader())
          .iterator();
      if (found.hasNext()) {
        return found.next();
      }
    } catch (ServiceConfigurationError e) {
      throw missing(e);
    }
    throw missing(null);
  }

  private static IllegalStateException missing(Throwable cause) {
    return new IllegalStateException("joblib4j's worker protocol is not installed: the jar that holds "
        + WorkerProtocol.class.getName() + " lacks, or has a broken, META-INF/services/"
        + WorkerProtocol.class.getName() + ". When you shade or repackage joblib4j, merge its services files"
        + " (the Maven Shade plugin's ServicesResourceTransformer).", cause);
  }
}
