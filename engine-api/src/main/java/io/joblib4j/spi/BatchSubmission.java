package io.joblib4j.spi;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One batch and the listener told how it went, as {@link BackendCall#submitAll} receives them.
 *
 * @param batch the batch to run
 * @param listener told how it went
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record BatchSubmission(Batch batch, BatchListener listener) {
  /**
   * Checks that both are given.
   *
   * @param batch the batch to run
   * @param listener told how it went
   */
  public BatchSubmission {
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(listener, "listener");
  }
}
