package io.joblib4j.spark.internal;

import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;

/**
 * A batch of a call, serialized, waiting for or held by a worker (direct channel) or a Spark job
 * (job path). Its sequence number is the id the worker's reports about it carry; its outcome is
 * accepted once.
 */
final class PendingBatch {
  final long seq;
  final Batch batch;
  final BatchListener listener;
  final byte[] payload;
  /** Times a worker was lost while it ran this batch. */
  int attempts;

  PendingBatch(long seq, Batch batch, BatchListener listener, byte[] payload) {
    this.seq = seq;
    this.batch = batch;
    this.listener = listener;
    this.payload = payload;
  }
}
