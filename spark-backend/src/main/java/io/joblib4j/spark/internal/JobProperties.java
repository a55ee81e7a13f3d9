package io.joblib4j.spark.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Spark's job group, description and call site for the jobs a call launches. They are
 * thread-local properties of the SparkContext, so they are set around the one submission and the
 * caller's own values are put back afterwards (a notebook user's job group must survive a
 * {@code Parallel} call).
 */
final class JobProperties {
  private static final String[] KEYS = {
      "spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel",
      "callSite.short", "callSite.long", JobPathCall.BATCH_PROPERTY};

  private final JavaSparkContext jsc;
  private final Map<String, String> previous = new LinkedHashMap<>();

  private JobProperties(JavaSparkContext jsc) {
    this.jsc = jsc;
    for (String k : KEYS) {
      previous.put(k, jsc.getLocalProperty(k));
    }
  }

  /**
   * Sets the group (cancelled as one, with interruption, so a running task stops within about a
   * second), the description shown in the Spark UI's job list and the stage name.
   */
  static JobProperties set(JavaSparkContext jsc, String group, String description) {
    JobProperties saved = new JobProperties(jsc);
    jsc.setJobGroup(group, description, true);
    jsc.setCallSite(description);
    return saved;
  }

  /** As {@link #set(JavaSparkContext, String, String)}, with one more property, {@code key}, for the job. */
  static JobProperties set(JavaSparkContext jsc, String group, String description, String key, String value) {
    JobProperties saved = set(jsc, group, description);
    jsc.setLocalProperty(key, value);
    return saved;
  }

  void restore() {
    previous.forEach(jsc::setLocalProperty);
  }
}
