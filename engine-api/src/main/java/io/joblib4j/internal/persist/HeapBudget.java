package io.joblib4j.internal.persist;

import io.joblib4j.CorruptFileException;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;

/**
 * The heap one load may still build ({@link LoadOptions#maxHeapBytes()}), charged with an estimate
 * of each object as the decoders make it, so that a small file that decodes to a great many
 * objects is refused while the heap still has room, instead of filling it for every thread of the
 * JVM. The estimates assume a 64-bit JVM: 12-byte object headers, 8-byte alignment, references of
 * 4 bytes (8 on heaps of 32 GiB and more, where compressed references are off).
 */
final class HeapBudget {
  /** Bytes per reference: a collection slot, an object field. */
  static final int REF = Runtime.getRuntime().maxMemory() >= (32L << 30) ? 8 : 4;
  /** A small object: a header and a few fields (a boxed number, an Optional, an empty collection's wrapper). */
  static final int OBJECT = 16;
  /** A hash map entry: a node of four fields, and its slot in a table at most three quarters full. */
  static final int MAP_ENTRY = 32 + 2 * REF;
  /** An empty HashMap, HashSet's map included. */
  static final int HASH_MAP = 48;
  /**
   * An object Kryo or Java serialization makes, whose class we do not know: the size of an empty
   * HashMap, so that a payload of many small collections is not undercounted.
   */
  static final int SERIALIZED_OBJECT = 48;
  /** An array's header. */
  static final int ARRAY = 16;

  /** How far ahead of its estimate a load reserves from {@link LoadsInProgress}. */
  static final long STEP = 1 << 20;

  private final String source;
  private final long limit;
  private long used;
  private long reserved;

  HeapBudget(String source, long limit) {
    this.source = source;
    this.limit = limit;
  }

  /**
   * Counts an object (or a slot) of about {@code bytes} bytes; throws once the total passes the
   * limit, or once the loads in progress together would pass theirs.
   */
  void charge(long bytes) {
    used += bytes;
    if (used > limit) {
      throw exceeded();
    }
    if (used > reserved) {
      reserve();
    }
  }

  private void reserve() {
    long ahead = Math.min(limit, used + STEP) - reserved;
    if (LoadsInProgress.reserve(ahead, reserved, limit)) {
      reserved += ahead;
      return;
    }
    long needed = used - reserved;
    if (!LoadsInProgress.reserve(needed, reserved, limit)) {
      throw tooManyAtOnce(needed);
    }
    reserved += needed;
  }

  /** Gives back what this load reserved: it is over, and what it built is its caller's now. */
  void release() {
    LoadsInProgress.release(reserved);
    reserved = 0;
  }

  /** What was charged so far, in bytes. */
  long used() {
    return used;
  }

  private CorruptFileException exceeded() {
    return new CorruptFileException(source, "the value would take more heap than a load may build: about "
        + used + " bytes built so far, over the limit of " + limit + " bytes"
        + " (LoadOptions.maxHeapBytes, by default half the maximum heap). If the file is what you expect,"
        + " raise it with LoadOptions.builder().maxHeapBytes(...), or for Memory and every load in this JVM"
        + " with -D" + LoadOptions.MAX_HEAP_BYTES_PROPERTY + "=<size> (and a larger -Xmx if the value"
        + " really is that large); an uncompressed file loaded with an MmapMode maps its NDArrays instead");
  }

  /** Not a damaged file: a load that would fit alone, stopped because others are building at the same time. */
  private JoblibException tooManyAtOnce(long needed) {
    long others = LoadsInProgress.reserved() - reserved;
    return new JoblibException(source + ": the loads in progress in this JVM would together build more heap"
        + " than loads may at once: this one has built about " + used + " bytes and needs " + needed
        + " more, the others hold about " + others + ", over the limit of " + Math.max(LoadsInProgress.budget, limit)
        + " bytes (the default LoadOptions.maxHeapBytes, half the maximum heap unless -D"
        + LoadOptions.MAX_HEAP_BYTES_PROPERTY + " says otherwise). Load fewer files at once, or raise it with -D"
        + LoadOptions.MAX_HEAP_BYTES_PROPERTY + "=<size> (and a larger -Xmx if the values really are that large)");
  }
}
