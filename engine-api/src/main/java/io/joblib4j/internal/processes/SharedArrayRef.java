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
 * @param kept for a file the pool keeps across calls ({@link PoolArrays}): its scope, under which a
 *     worker keeps its copy across calls too; null for a call's own file
 */
record SharedArrayRef(String callId, String file, Class<?> elementType, int length, Kept kept)
    implements Serializable {
  @Serial private static final long serialVersionUID = 2L;

  SharedArrayRef(String callId, String file, Class<?> elementType, int length) {
    this(callId, file, elementType, length, null);
  }

  /**
   * A kept file: what a RELEASE names to drop the workers' copies. A kept file is never written
   * again (a changed array gets a new file), so its name is all a worker needs to keep a copy.
   *
   * @param scope the release scope, {@link WorkerArrays#KEPT_PREFIX} and the file
   */
  record Kept(String scope) implements Serializable {
    @Serial private static final long serialVersionUID = 2L;
  }

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
