package io.joblib4j.spi.worker;

import org.apiguardian.api.API;

/** What a FAILED frame reports; each becomes one kind of error for the caller ({@link BatchCodec}). */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum FailureKind {
  /** A task threw: the call fails with that exception, as itself or as a {@link io.joblib4j.RemoteTaskException}. */
  TASK,
  /** The initializer threw before the batch: the call fails with that exception. */
  INITIALIZER,
  /** The batch could not be deserialized in the worker: a {@link io.joblib4j.TaskSerializationException}. */
  BATCH_UNREADABLE,
  /** A result could not be serialized to go back: a {@link io.joblib4j.TaskSerializationException} with its field path. */
  RESULT_UNWRITABLE,
  /** The serialized results are over the limit the worker was given. */
  RESULT_TOO_LARGE
}
