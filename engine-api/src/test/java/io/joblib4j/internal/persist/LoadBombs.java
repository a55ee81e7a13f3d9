package io.joblib4j.internal.persist;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Valid files that decompress to little but decode to a lot: what a load's heap bound is for. */
final class LoadBombs {
  private LoadBombs() {}

  /**
   * A zstd file (about 3 KB) holding a List of {@code n} empty HashMaps: 3 bytes of object stream
   * each, 30 MB in all for 10 million, which would take some 560 MB of heap.
   */
  static Path emptyMaps(Path file, int n) throws IOException {
    try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(file), 19)) {
      ContainerWriter w = new ContainerWriter(Sink.of(out));
      ObjectOut o = new ObjectOut(w);
      o.writeByte(Tags.LIST);
      o.writeByte(Tags.C_PLAIN);
      o.writeVarLong(n);
      for (int i = 0; i < n; i++) {
        o.writeByte(Tags.MAP);
        o.writeByte(Tags.C_PLAIN);
        o.writeVarLong(0);
      }
      o.flush();
      w.finish();
    }
    return file;
  }
}
