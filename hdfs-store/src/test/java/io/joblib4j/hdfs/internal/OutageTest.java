package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * What {@link Outage} takes for an unreachable file system. A NameNode that closes its
 * connections shows up in the RPC client as an end of stream or as a reset, depending on whether
 * the reset reached the socket before the client's read: both are the same outage.
 */
class OutageTest {
  private static final StackTraceElement SOCKET_READ = new StackTraceElement("sun.nio.ch.SocketDispatcher", "read0", null, -2);
  private static final StackTraceElement FILE_READ = new StackTraceElement("sun.nio.ch.FileDispatcherImpl", "read0", null, -2);
  private static final StackTraceElement RPC_CLIENT =
      new StackTraceElement("org.apache.hadoop.ipc.Client$Connection", "receiveRpcResponse", "Client.java", 1234);
  private static final StackTraceElement STORE = new StackTraceElement("io.joblib4j.hdfs.internal.HadoopStore", "get", null, 1);

  /** Thrown at {@code frames}, then wrapped the way Hadoop's {@code NetUtils.wrapException} does. */
  private static IOException wrapped(IOException thrown, StackTraceElement... frames) {
    thrown.setStackTrace(frames);
    return new IOException("Failed on local exception: " + thrown + "; Host Details : local host is: x", thrown);
  }

  @Test
  void aConnectionResetUnderTheRpcClientIsAnOutage() {
    IOException reset = wrapped(new IOException("Connection reset by peer"), SOCKET_READ, RPC_CLIENT, STORE);
    assertThat(Outage.unreachable(reset)).isTrue();
  }

  @Test
  void anEndOfStreamUnderTheRpcClientIsAnOutage() {
    IOException eof = wrapped(new EOFException(), RPC_CLIENT, STORE);
    assertThat(Outage.unreachable(eof)).isTrue();
  }

  @Test
  void aFailedLocalFileReadIsNoOutage() {
    IOException local = wrapped(new IOException("Input/output error"), FILE_READ, STORE);
    assertThat(Outage.unreachable(local)).isFalse();
  }

  @Test
  void theEndOfAFileBeingReadIsNoOutage() {
    IOException eof = wrapped(new EOFException("Unexpected end of input stream"), STORE);
    assertThat(Outage.unreachable(eof)).isFalse();
  }

  @Test
  void anOperationRefusedByTheServerIsNoOutage() {
    IOException refused = wrapped(new IOException("Permission denied: user=x, access=WRITE"), RPC_CLIENT, STORE);
    assertThat(Outage.unreachable(refused)).isFalse();
  }
}
