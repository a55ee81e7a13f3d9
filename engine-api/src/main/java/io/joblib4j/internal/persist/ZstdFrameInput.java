package io.joblib4j.internal.persist;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Decodes a run of zstd frames with zstd-jni's streaming context and knows whether the data ended
 * between frames. zstd-jni's own {@code ZstdInputStream} takes the end of the input for the end
 * of the data even inside a frame, when that frame began in the same input buffer as the end of
 * the previous one: a complete frame followed by the start of another (trailing garbage that
 * looks like zstd) would load.
 */
final class ZstdFrameInput extends DecodingStream {
  private static final int IN = (int) ZstdInputStreamNoFinalizer.recommendedDInSize();
  private static final int OUT = (int) ZstdInputStreamNoFinalizer.recommendedDOutSize();

  private final InputStream in;
  private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
  private final byte[] transfer = new byte[IN];
  /** Compressed bytes not yet given to the decoder, readable (position..limit). */
  private final ByteBuffer src = ByteBuffer.allocateDirect(IN).limit(0);
  /** Decoded bytes not yet read, readable. */
  private final ByteBuffer dst = ByteBuffer.allocateDirect(OUT).limit(0);
  /** Whether the decoder is between frames: nothing of a frame consumed but not fully decoded. */
  private boolean betweenFrames = true;

  ZstdFrameInput(InputStream in) {
    this.in = in;
  }

  @Override
  int decode(byte[] b, int off, int len) throws IOException {
    while (!dst.hasRemaining()) {
      if (!decodeMore()) {
        return -1;
      }
    }
    int n = Math.min(len, dst.remaining());
    dst.get(b, off, n);
    return n;
  }

  /** Decodes the next piece; false at a clean end of the input, between frames. */
  private boolean decodeMore() throws IOException {
    if (!src.hasRemaining()) {
      int n = in.read(transfer);
      if (n < 0) {
        if (!betweenFrames) {
          throw new EOFException("the zstd data ends inside a frame");
        }
        return false;
      }
      src.clear();
      src.put(transfer, 0, n).flip();
      return true;
    }
    int consumedFrom = src.position();
    dst.clear();
    boolean frameDone;
    try {
      frameDone = ctx.decompressDirectByteBufferStream(dst, src);
    } catch (ZstdException e) {
      throw new IOException(e.getMessage(), e);
    }
    dst.flip();
    if (frameDone) {
      betweenFrames = true;
    } else if (src.position() != consumedFrom || dst.hasRemaining()) {
      betweenFrames = false;
    }
    return true;
  }

  @Override
  void release() throws IOException {
    ctx.close();
    in.close();
  }
}
