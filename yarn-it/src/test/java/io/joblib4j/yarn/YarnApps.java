package io.joblib4j.yarn;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * The ResourceManager's view of the applications, through YarnClient: an application found by its
 * tag, waited for until it reaches a state (polled, with a deadline), killed.
 */
final class YarnApps implements AutoCloseable {
  static final Set<YarnApplicationState> ENDED =
      EnumSet.of(YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);
  /** Between two questions to the ResourceManager: YARN tells state changes to nobody who waits. */
  private static final long POLL_MILLIS = 250;

  private final YarnClient client;

  YarnApps(Configuration conf) {
    client = YarnClient.createYarnClient();
    client.init(conf);
    client.start();
  }

  /** The one application tagged {@code tag}, once the ResourceManager knows it. */
  ApplicationReport byTag(String tag, Duration timeout) throws IOException, YarnException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      // filtered here: the ResourceManager's own tag filter (getApplications(..., tags, ...)) found none
      List<ApplicationReport> apps = client.getApplications().stream()
          .filter(a -> a.getApplicationTags().contains(tag)).toList();
      if (apps.size() > 1) {
        throw new IllegalStateException("more than one application tagged " + tag + ": " + apps);
      }
      if (apps.size() == 1) {
        return apps.get(0);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no application tagged " + tag + " after " + timeout);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** The application's report once its state is one of {@code states}. */
  ApplicationReport await(ApplicationId app, Set<YarnApplicationState> states, Duration timeout)
      throws IOException, YarnException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      ApplicationReport r = client.getApplicationReport(app);
      if (states.contains(r.getYarnApplicationState())) {
        return r;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(app + " is " + r.getYarnApplicationState() + " after " + timeout + ", not one of "
            + states + ": " + r.getDiagnostics());
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** The application's report as the ResourceManager has it now. */
  ApplicationReport report(ApplicationId app) throws IOException, YarnException {
    return client.getApplicationReport(app);
  }

  /** Kills the application, as {@code yarn application -kill} does. */
  void kill(ApplicationId app) throws IOException, YarnException {
    client.killApplication(app);
  }

  @Override
  public void close() throws IOException {
    client.close();
  }
}
