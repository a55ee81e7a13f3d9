package io.joblib4j.internal.processes;

import io.joblib4j.array.ArrayMapping;
import io.joblib4j.array.NDArray;
import java.io.Serial;
import java.io.Serializable;

/**
 * What travels instead of a memory-mapped {@link io.joblib4j.array.NDArray} (or a large heap one
 * the parent wrote to the call's folder): the file region, which the other JVM maps itself. A
 * READ_WRITE array stays READ_WRITE, so workers write straight into the parent's array (joblib's
 * {@code np.memmap(mode="w+")} pattern); a temporary copy is READ_ONLY, as joblib's are. A
 * worker maps a call's array once ({@link WorkerArrays}); a result sent back is mapped again by the
 * parent.
 *
 * @param callId the call whose tasks share the mapping (null for a result sent back)
 * @param mapping the file region to map
 */
record SharedNDArrayRef(String callId, ArrayMapping mapping) implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  @Serial
  private Object readResolve() {
    return callId == null ? NDArray.map(mapping) : WorkerArrays.get(this);
  }
}
