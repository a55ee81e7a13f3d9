package io.joblib4j.testing;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;

/** A task argument that serializes but refuses to be read back, as a worker finds it. */
public final class Unreadable implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** The message of the exception reading it throws. */
  public static final String REFUSAL = "Unreadable refuses to be read";

  @Serial
  private void readObject(ObjectInputStream in) throws IOException {
    throw new InvalidObjectException(REFUSAL);
  }
}
