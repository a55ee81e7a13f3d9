package io.joblib4j.spark.stages;

import org.apiguardian.api.API;

/**
 * A stage call that cannot be keyed: its input Datasets hold something whose content the key cannot
 * see (a non-deterministic expression, a streaming source, an RDD, a JDBC table, a table format the
 * stage cache does not know). The message names the part of the plan and the way to opt in ({@code
 * allowNondeterministic()}, or a key of your own with {@code inputKey(...)}).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class StageKeyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * A refusal.
   *
   * @param message what cannot be keyed, where, and what to do
   */
  public StageKeyException(String message) {
    super(message);
  }
}
