package io.joblib4j.spark.internal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * The driver's end of one executor-side worker's connection. Writes come from several threads
 * (the thread that submits a batch, the reader that hands out the next one, cancellation), so
 * they are serialized here; only the connection's reader thread reads.
 */
final class WorkerConnection {
  final String worker;
  final DataInputStream in;
  private final Socket socket;
  private final DataOutputStream out;

  WorkerConnection(String worker, Socket socket, DataInputStream in, DataOutputStream out) {
    this.worker = worker;
    this.socket = socket;
    this.in = in;
    this.out = out;
  }

  synchronized void sendBatch(int seq, byte[] payload) throws IOException {
    out.writeByte(Frames.BATCH);
    out.writeInt(seq);
    Frames.writeBytes(out, payload);
    out.flush();
  }

  /** Tells the worker to return; a worker already gone is fine. */
  void sendExit() {
    try {
      synchronized (this) {
        out.writeByte(Frames.EXIT);
        out.flush();
      }
    } catch (IOException ignored) {
      close();
    }
  }

  /** Drops the connection at once: the worker's next read fails and it returns. */
  void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing is all we wanted
    }
  }

  @Override
  public String toString() {
    return worker;
  }
}
