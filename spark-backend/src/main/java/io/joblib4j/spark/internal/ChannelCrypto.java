package io.joblib4j.spark.internal;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secrets of a call's channel, and the authenticated encryption of its bytes when Spark
 * encrypts its own traffic.
 *
 * <p>Each call draws a token, and when sealed a 256-bit key, from the operating system's secure
 * random source. Both travel to the executors only inside the call's Spark task, which Spark
 * itself authenticates and encrypts when {@code spark.authenticate} with {@code
 * spark.network.crypto.enabled} (or {@code spark.ssl.rpc.enabled}) is on — so the channel is as
 * private as Spark's own RPC, without a certificate or a second secret to configure.
 *
 * <p>A sealed connection derives a key for each direction from the call key and two fresh nonces,
 * one from each side ({@code HMAC-SHA256(callKey, label ‖ callId ‖ workerNonce ‖ driverNonce)}),
 * so no two connections, and no two directions, ever share a key: a recorded connection cannot be
 * replayed, and a record counter can serve as the GCM nonce. The stream is cut into records of at
 * most 64 KiB, each {@code int length ‖ AES-256-GCM(record)} with a 128-bit tag; a record that
 * fails its tag ends the connection before a byte of it is used, and a length beyond one record's
 * is refused before anything is allocated.
 */
final class ChannelCrypto {
  static final int KEY_BYTES = 32;
  static final int NONCE_BYTES = 16;
  static final int TOKEN_BYTES = 32;
  private static final int MAX_RECORD = 64 << 10;
  /** Buffers start this small and grow to a record's size only for connections that send large frames. */
  private static final int FIRST_BUFFER = 4 << 10;
  private static final int TAG_BYTES = 16;
  private static final SecureRandom RANDOM = osRandom();

  private final SecretKeySpec toDriver;
  private final SecretKeySpec toWorker;

  private ChannelCrypto(SecretKeySpec toDriver, SecretKeySpec toWorker) {
    this.toDriver = toDriver;
    this.toWorker = toWorker;
  }

  /** {@code n} bytes from the operating system's secure random source. */
  static byte[] random(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  /** /dev/urandom read directly where there is one (no SHA1PRNG mixed in); the platform's default elsewhere. */
  private static SecureRandom osRandom() {
    try {
      return SecureRandom.getInstance("NativePRNGNonBlocking");
    } catch (NoSuchAlgorithmException notUnix) {
      return new SecureRandom(); // Windows: the OS's CryptGenRandom
    }
  }

  /** The keys of one connection of the call keyed {@code callKey}. */
  static ChannelCrypto forConnection(byte[] callKey, String callId, byte[] workerNonce, byte[] driverNonce) {
    return new ChannelCrypto(derive(callKey, "joblib4j channel, worker to driver", callId, workerNonce, driverNonce),
        derive(callKey, "joblib4j channel, driver to worker", callId, workerNonce, driverNonce));
  }

  private static SecretKeySpec derive(byte[] callKey, String label, String callId, byte[] workerNonce,
      byte[] driverNonce) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(callKey, "HmacSHA256"));
      mac.update(label.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      mac.update(callId.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      mac.update(workerNonce);
      mac.update(driverNonce);
      return new SecretKeySpec(mac.doFinal(), "AES");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM offers no HmacSHA256, which every Java 17 has", e);
    }
  }

  /** What the driver reads from the worker. */
  InputStream driverInput(InputStream raw) {
    return new Opening(raw, toDriver);
  }

  /** What the driver sends the worker. */
  OutputStream driverOutput(OutputStream raw) {
    return new Sealing(raw, toWorker);
  }

  /** What the worker reads from the driver. */
  InputStream workerInput(InputStream raw) {
    return new Opening(raw, toWorker);
  }

  /** What the worker sends the driver. */
  OutputStream workerOutput(OutputStream raw) {
    return new Sealing(raw, toDriver);
  }

  private static Cipher gcm() {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM offers no AES/GCM, which every Java 17 has", e);
    }
  }

  /** The 96-bit GCM nonce of record {@code n}: each direction's key is used for one connection only. */
  private static GCMParameterSpec nonce(long n) {
    return new GCMParameterSpec(TAG_BYTES * 8, ByteBuffer.allocate(12).putInt(0).putLong(n).array());
  }

  /** Buffers writes into records and seals each on flush or when full. */
  private static final class Sealing extends OutputStream {
    private final OutputStream raw;
    private final SecretKeySpec key;
    private final Cipher cipher = gcm();
    private byte[] plain = new byte[FIRST_BUFFER];
    private byte[] record = new byte[4 + FIRST_BUFFER + TAG_BYTES];
    private int used;
    private long counter;

    Sealing(OutputStream raw, SecretKeySpec key) {
      this.raw = raw;
      this.key = key;
    }

    /** Room for more: a larger buffer up to one record, else the record goes out. */
    private void makeRoom() throws IOException {
      if (used < plain.length) {
        return;
      }
      if (plain.length < MAX_RECORD) {
        plain = Arrays.copyOf(plain, Math.min(MAX_RECORD, plain.length * 4));
        record = new byte[4 + plain.length + TAG_BYTES];
      } else {
        seal();
      }
    }

    @Override
    public void write(int b) throws IOException {
      makeRoom();
      plain[used++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      while (len > 0) {
        makeRoom();
        int n = Math.min(len, plain.length - used);
        System.arraycopy(b, off, plain, used, n);
        used += n;
        off += n;
        len -= n;
      }
    }

    @Override
    public void flush() throws IOException {
      if (used > 0) {
        seal();
      }
      raw.flush();
    }

    private void seal() throws IOException {
      int sealed;
      try {
        cipher.init(Cipher.ENCRYPT_MODE, key, nonce(counter++));
        sealed = cipher.doFinal(plain, 0, used, record, 4);
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot encrypt the channel's bytes: " + e, e);
      }
      ByteBuffer.wrap(record).putInt(0, sealed);
      raw.write(record, 0, 4 + sealed); // one write, one segment
      used = 0;
    }

    @Override
    public void close() throws IOException {
      try {
        flush();
      } finally {
        raw.close();
      }
    }
  }

  /** Reads records, checks each one's tag, and serves its bytes. */
  private static final class Opening extends InputStream {
    private final DataInputStream raw;
    private final SecretKeySpec key;
    private final Cipher cipher = gcm();
    private byte[] record = new byte[FIRST_BUFFER + TAG_BYTES];
    private byte[] plain = new byte[FIRST_BUFFER];
    private int pos;
    private int limit;
    private long counter;

    Opening(InputStream raw, SecretKeySpec key) {
      // buffered: a record's length and body in one read of the socket, not five
      this.raw = new DataInputStream(new BufferedInputStream(raw, FIRST_BUFFER * 2));
      this.key = key;
    }

    /** Opens the next record; false at the end of the stream between records. */
    private boolean next() throws IOException {
      int length;
      try {
        length = raw.readInt();
      } catch (EOFException end) {
        return false;
      }
      if (length < TAG_BYTES || length > MAX_RECORD + TAG_BYTES) {
        throw new StreamCorruptedException("bad sealed record length " + length + ": the peer does not"
            + " speak the sealed channel");
      }
      if (length > record.length) { // at most one record's size, checked above
        record = new byte[length];
        plain = new byte[length - TAG_BYTES];
      }
      raw.readFully(record, 0, length);
      try {
        cipher.init(Cipher.DECRYPT_MODE, key, nonce(counter++));
        limit = cipher.doFinal(record, 0, length, plain, 0);
      } catch (AEADBadTagException e) {
        throw new SealBrokenException();
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot decrypt the channel's bytes: " + e, e);
      }
      pos = 0;
      return true;
    }

    @Override
    public int read() throws IOException {
      while (pos == limit) {
        if (!next()) {
          return -1;
        }
      }
      return plain[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      while (pos == limit) {
        if (!next()) {
          return -1;
        }
      }
      int n = Math.min(len, limit - pos);
      System.arraycopy(plain, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return limit - pos;
    }

    @Override
    public void close() throws IOException {
      raw.close();
    }
  }

  /** A record failed its tag: the peer does not hold the call's key, or the bytes were altered. */
  static final class SealBrokenException extends IOException {
    private static final long serialVersionUID = 1L;

    SealBrokenException() {
      super("a sealed record failed authentication: the peer does not hold the call's key, or the bytes"
          + " were altered on the way");
    }
  }
}
