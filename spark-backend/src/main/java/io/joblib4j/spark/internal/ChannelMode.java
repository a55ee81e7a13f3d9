package io.joblib4j.spark.internal;

import java.util.Locale;

/**
 * How a call's batches reach the executors ({@code spark.joblib4j.channel}).
 *
 * <ul>
 *   <li>{@link #AUTO} (the default): executors connect to the driver's channel; if the first
 *       worker of a call cannot reach it within {@code spark.joblib4j.driver.connectTimeout} and
 *       none has, the call — and every later call on the same SparkContext — runs through Spark
 *       jobs instead, with a warning naming the settings that would restore the direct channel.
 *   <li>{@link #DRIVER}: the direct channel only; executors that cannot reach it fail the call at
 *       once, naming the settings.
 *   <li>{@link #JOB}: every batch is a Spark job of its own, its results coming back through the
 *       job's result path; the driver opens no port. About one Spark job launch per batch (tens
 *       of milliseconds), and a task's progress is known only when its batch ends.
 * </ul>
 */
enum ChannelMode {
  AUTO, DRIVER, JOB;

  static ChannelMode parse(String key, String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (ChannelMode m : values()) {
      if (m.name().toLowerCase(Locale.ROOT).equals(t)) {
        return m;
      }
    }
    throw new IllegalArgumentException(key + " must be auto, driver or job, not \"" + text + "\"");
  }
}
