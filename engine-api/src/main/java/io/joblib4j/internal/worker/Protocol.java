package io.joblib4j.internal.worker;

import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.WorkerLink;
import io.joblib4j.spi.worker.WorkerLoop;
import io.joblib4j.spi.worker.WorkerProtocol;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;

/** engine-api's implementation of the worker protocol, installed through {@code META-INF/services}. */
public final class Protocol implements WorkerProtocol {
  @Override
  public WorkerLoop.Builder loop(String name) {
    return ServingLoop.builder(name);
  }

  @Override
  public BatchCodec.Builder codec() {
    return Codec.builder();
  }

  @Override
  public WorkerLink accept(Socket socket, Duration handshakeTimeout) throws IOException {
    return Link.accept(socket, handshakeTimeout);
  }

  @Override
  public WorkerLink accept(InputStream input, OutputStream output, Closeable connection) throws IOException {
    return Link.accept(input, output, connection);
  }

  @Override
  public byte[] batchThenExit(long job, byte[] initializer, byte[] batch) {
    return Link.batchThenExit(job, initializer, batch);
  }

  @Override
  public boolean isDisconnect(IOException e) {
    return Frames.isDisconnect(e);
  }
}
