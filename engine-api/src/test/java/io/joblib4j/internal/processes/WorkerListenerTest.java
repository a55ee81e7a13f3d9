package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spi.worker.Hello;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerListenerTest {
  /** Set if a connection's frames past its HELLO were ever deserialized. */
  static volatile boolean tripped;

  static final class Tripwire implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      tripped = true;
    }
  }

  @Test
  void tokensAre256BitsFromTheSecureSourceAndRoundTripThroughTheEnvironment() {
    byte[] a = WorkerTokens.newToken();
    byte[] b = WorkerTokens.newToken();
    assertThat(a).hasSize(32).isNotEqualTo(b);
    assertThat(WorkerTokens.decode(WorkerTokens.encode(a))).isEqualTo(a);
    assertThatThrownBy(() -> WorkerTokens.decode("00ff")).hasMessageContaining("32 bytes");
  }

  @Test
  void listensOnAUnixSocketInAFolderOnlyThisUserMayEnter(@TempDir Path base) throws Exception {
    Path folder = TempFolders.create(base, "sockets");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");
    try (WorkerListener l = WorkerListener.open(folder, "w-1.sock")) {
      assertThat(l.unixDomain()).isTrue();
      assertThat(l.workerArguments()).containsExactly("unix", folder.resolve("w-1.sock").toAbsolutePath().toString());
    }
    assertThat(folder.resolve("w-1.sock")).doesNotExist();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(WorkerPools.scratchDir())))
        .isEqualTo("rwx------");
  }

  @Test
  void refusesAWrongTokenWithoutDeserializingWhatFollowsAndThenAdmitsTheWorker(@TempDir Path base)
      throws Exception {
    Path folder = TempFolders.create(base, "sockets");
    byte[] token = WorkerTokens.newToken();
    byte[] guess = token.clone();
    guess[31] ^= 1;
    try (WorkerListener l = WorkerListener.open(folder, "w.sock")) {
      CompletableFuture<WorkerLink> accepted = CompletableFuture.supplyAsync(() -> {
        try {
          return l.accept(token, Duration.ofSeconds(5));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      Path socket = Path.of(l.workerArguments().get(1));
      try (SocketChannel rogue = connect(socket); SocketChannel worker = connect(socket)) {
        // the rogue connects first: a HELLO with a token one bit off, then results for job 1
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.write(hello(guess, "rogue"));
        both.write(outcomeFrame(1, serialize(new Object[] {new Tripwire()})));
        write(rogue, both.toByteArray()); // in one write: all of it reaches the parent before it answers
        ByteBuffer one = ByteBuffer.allocate(1);
        assertThat(rogue.read(one)).isEqualTo(-1); // dropped
        write(worker, hello(token, "worker"));
        WorkerLink link = accepted.get(10, TimeUnit.SECONDS);
        assertThat(link.worker()).isEqualTo("worker");
        link.close();
      }
      assertThat(tripped).isFalse();
    }
  }

  @Test
  void aConnectionThatSaysNothingCannotKeepTheWorkerOut(@TempDir Path base) throws Exception {
    Path folder = TempFolders.create(base, "sockets");
    byte[] token = WorkerTokens.newToken();
    try (WorkerListener l = WorkerListener.open(folder, "w.sock")) {
      CompletableFuture<WorkerLink> accepted = CompletableFuture.supplyAsync(() -> {
        try {
          return l.accept(token, Duration.ofMillis(200));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      Path socket = Path.of(l.workerArguments().get(1));
      try (SocketChannel silent = connect(socket)) {
        Thread.sleep(50); // stands for a peer that connected first and never speaks
        try (SocketChannel worker = connect(socket)) {
          write(worker, hello(token, "worker"));
          assertThat(accepted.get(10, TimeUnit.SECONDS).worker()).isEqualTo("worker");
        }
        assertThat(silent.read(ByteBuffer.allocate(1))).isEqualTo(-1);
      }
    }
  }

  @Test
  void closingTheListenerEndsAWaitingAccept(@TempDir Path base) throws Exception {
    Path folder = TempFolders.create(base, "sockets");
    WorkerListener l = WorkerListener.open(folder, "w.sock");
    CompletableFuture<WorkerLink> accepted = CompletableFuture.supplyAsync(() -> {
      try {
        return l.accept(WorkerTokens.newToken(), Duration.ofSeconds(5));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    Thread.sleep(50); // lets accept() block: closing must work whether or not it has
    l.close();
    assertThatThrownBy(() -> accepted.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(java.io.UncheckedIOException.class);
  }

  private static SocketChannel connect(Path socket) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    ch.connect(UnixDomainSocketAddress.of(socket));
    return ch;
  }

  private static void write(SocketChannel ch, byte[] bytes) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  /** A HELLO as {@code WorkerLoop} writes it (Frames' layout). */
  private static byte[] hello(byte[] token, String name) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(body);
    d.writeByte(10);
    d.writeInt(Hello.VERSION);
    d.writeInt(token.length);
    d.write(token);
    d.writeInt(0);
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    d.writeInt(n.length);
    d.write(n);
    d.writeLong(4711);
    d.writeLong(1 << 30);
    return frame(body.toByteArray());
  }

  private static byte[] outcomeFrame(long job, byte[] results) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(body);
    d.writeByte(13);
    d.writeLong(job);
    d.writeInt(results.length);
    d.write(results);
    return frame(body.toByteArray());
  }

  private static byte[] frame(byte[] body) throws IOException {
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(f);
    d.writeInt(body.length);
    d.write(body);
    return f.toByteArray();
  }

  private static byte[] serialize(Object o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }
}
