package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;

/**
 * What travels in a batch instead of a large primitive array: the file in the call's temporary
 * folder that holds its elements (native byte order). In the worker it resolves to the array,
 * read once per call ({@link WorkerArrays}).
 *
 * @param callId the call whose folder holds the file; the worker drops its copy when the call ends
 * @param file absolute path of the file
 * @param elementType the array's element type, e.g. {@code double.class}
 * @param length the number of elements
 */
record SharedArrayRef(String callId, String file, Class<?> elementType, int length) implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  @Serial
  private Object readResolve() throws ObjectStreamException {
    try {
      return WorkerArrays.get(this);
    } catch (IOException e) {
      InvalidObjectException x = new InvalidObjectException("cannot read the shared array " + file + ": " + e.getMessage());
      x.initCause(e);
      throw x;
    }
  }
}
