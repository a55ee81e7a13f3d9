package io.joblib4j.internal.processes;

import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;

/**
 * One batch on its way to, or on, a worker.
 *
 * @param call the call it belongs to
 * @param id unique within its pool; frames about the batch carry it
 * @param batch the batch itself, for messages
 * @param listener the core's listener for it
 * @param bytes the serialized batch
 */
record Job(ProcessesCall call, long id, Batch batch, BatchListener listener, byte[] bytes) {}
