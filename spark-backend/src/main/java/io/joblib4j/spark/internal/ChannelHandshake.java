package io.joblib4j.spark.internal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.nio.charset.StandardCharsets;

/**
 * What an executor's worker and the driver's channel say before the worker protocol starts, in
 * the clear: which call the worker serves and whether its connection is sealed, then the driver's
 * answer. It lets the driver route a connection to its call's keys, tells a late worker at once
 * that its call is over, and tells a worker in bounded time that what it reached is no joblib4j
 * driver (a NAT or proxy in the way). Nothing here is a secret: the worker proves itself in the
 * protocol's HELLO that follows (token, or the first sealed record).
 *
 * <pre>
 * worker → driver   int magic "J4JC", byte version, byte sealed (0|1), short n, n bytes call id (UTF-8),
 *                   16 bytes worker nonce
 * driver → worker   byte answer (GO, NO_SUCH_CALL, REFUSED), 16 bytes driver nonce
 * </pre>
 *
 * The magic is larger than any HELLO frame length, so a worker of a joblib4j from before this
 * handshake, which starts with a HELLO, is told apart and refused by its protocol version.
 */
final class ChannelHandshake {
  static final int MAGIC = 0x4A344A43; // "J4JC"
  static final byte VERSION = 1;
  static final byte GO = 0;
  static final byte NO_SUCH_CALL = 1;
  static final byte REFUSED = 2;
  private static final int MAX_CALL_ID = 512;

  private ChannelHandshake() {}

  /**
   * What the worker said.
   *
   * @param version the handshake version the worker speaks
   * @param sealed whether the worker seals what follows
   * @param callId the call it serves
   * @param nonce its fresh nonce, for the connection's keys
   */
  record Opening(byte version, boolean sealed, String callId, byte[] nonce) {}

  /** The worker's side: says which call it serves. */
  static void open(OutputStream raw, boolean sealed, String callId, byte[] nonce) throws IOException {
    byte[] id = callId.getBytes(StandardCharsets.UTF_8);
    DataOutputStream out = new DataOutputStream(raw);
    out.writeInt(MAGIC);
    out.writeByte(VERSION);
    out.writeByte(sealed ? 1 : 0);
    out.writeShort(id.length);
    out.write(id);
    out.write(nonce);
    out.flush();
  }

  /** The driver's side, after it read {@link #MAGIC}: the rest of the worker's opening. */
  static Opening readOpening(DataInputStream in) throws IOException {
    byte version = in.readByte();
    if (version != VERSION) {
      return new Opening(version, false, "", new byte[0]); // its layout is unknown: read no further
    }
    boolean sealed = in.readByte() != 0;
    int n = in.readUnsignedShort();
    if (n > MAX_CALL_ID) {
      throw new StreamCorruptedException("a call id of " + n + " bytes");
    }
    byte[] id = new byte[n];
    in.readFully(id);
    byte[] nonce = new byte[ChannelCrypto.NONCE_BYTES];
    in.readFully(nonce);
    return new Opening(version, sealed, new String(id, StandardCharsets.UTF_8), nonce);
  }

  /** The driver's answer; {@code nonce} is its own for a GO, ignored otherwise. */
  static void answer(OutputStream raw, byte answer, byte[] nonce) throws IOException {
    DataOutputStream out = new DataOutputStream(raw);
    out.writeByte(answer);
    out.write(nonce == null ? new byte[ChannelCrypto.NONCE_BYTES] : nonce);
    out.flush();
  }

  /**
   * The worker's side: the driver's answer, and its nonce for a GO.
   *
   * @return the driver's nonce, or null if the driver answered {@code NO_SUCH_CALL}
   * @throws IOException if the driver refused the worker, or what answered is no joblib4j driver
   */
  static byte[] readAnswer(DataInputStream in) throws IOException {
    byte answer = in.readByte();
    byte[] nonce = new byte[ChannelCrypto.NONCE_BYTES];
    in.readFully(nonce);
    return switch (answer) {
      case GO -> nonce;
      case NO_SUCH_CALL -> null;
      case REFUSED -> throw new IOException("the driver refused this worker: the executors run another"
          + " joblib4j than the driver (the driver's log says what differs)");
      default -> throw new StreamCorruptedException("what answered at the driver's address is not a joblib4j"
          + " driver (answer " + answer + ")");
    };
  }
}
