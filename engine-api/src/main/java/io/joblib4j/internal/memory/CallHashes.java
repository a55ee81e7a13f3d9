package io.joblib4j.internal.memory;

import java.util.Collections;
import java.util.List;

/**
 * The parts a call key is hashed from, beside the function's identity and code version: the hash of
 * the captured values and of each argument (null for an ignored one). Recorded in {@code
 * metadata.json} so that {@code explain} can say which part of a missing call differs.
 */
record CallHashes(String captured, List<String> arguments) {
  CallHashes {
    arguments = Collections.unmodifiableList(new java.util.ArrayList<>(arguments));
  }
}
