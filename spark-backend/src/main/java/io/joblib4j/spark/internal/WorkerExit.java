package io.joblib4j.spark.internal;

/**
 * How an executor's worker task ended, sent back as the task's result so that the driver learns
 * at once why a worker could not serve — without the task failing, which Spark would retry four
 * times, each after another connect timeout. Carried as a String, which every Spark serializer
 * handles.
 *
 * @param kind what happened
 * @param detail for messages: why the worker could not reach or was refused by the driver
 */
record WorkerExit(Kind kind, String detail) {
  enum Kind {
    /** The worker served batches until the call was over, or lost its connection on the way. */
    SERVED,
    /** The worker started after its call was over. */
    LATE,
    /** The worker could not reach the driver, or what it reached was no joblib4j driver. */
    UNREACHABLE,
    /** The driver refused the worker: another joblib4j, or other encryption settings. */
    REFUSED
  }

  static final WorkerExit SERVED = new WorkerExit(Kind.SERVED, "");
  static final WorkerExit LATE = new WorkerExit(Kind.LATE, "");

  String encode() {
    return kind.name() + ':' + detail;
  }

  static WorkerExit decode(String text) {
    int colon = text.indexOf(':');
    return new WorkerExit(Kind.valueOf(text.substring(0, colon)), text.substring(colon + 1));
  }
}
