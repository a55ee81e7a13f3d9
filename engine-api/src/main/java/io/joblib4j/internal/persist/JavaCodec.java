package io.joblib4j.internal.persist;

import io.joblib4j.LoadOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Java serialization for Serializable objects the codec does not know, read through the same
 * {@link AllowList}: every class name is checked in {@code resolveClass}, which runs before the class
 * is initialised and before any instance exists; a filter caps depth, references and array lengths
 * (an array cannot have more elements than the payload has bytes).
 */
final class JavaCodec {
  /** For NDArray payloads inside Kryo: nothing but joblib4j's own array types. */
  static final AllowList ONLY_ARRAYS = new AllowList(LoadOptions.defaults(), JavaCodec.class.getClassLoader(), "stream");

  private JavaCodec() {}

  /** An ObjectInputStream whose every class goes through an allow-list. */
  static final class FilteredInput extends ObjectInputStream {
    private final AllowList allow;

    private long references;

    /**
     * Reads a payload of {@code payloadBytes} bytes; what it builds is charged to {@code heap} (an
     * object per new reference, an array by its length), when not null.
     */
    FilteredInput(InputStream in, AllowList allow, long payloadBytes, int maxDepth, HeapBudget heap)
        throws IOException {
      super(in);
      this.allow = allow;
      setObjectInputFilter(info -> {
        if (info.depth() > maxDepth || info.arrayLength() > payloadBytes || info.references() > payloadBytes) {
          return ObjectInputFilter.Status.REJECTED;
        }
        if (heap != null) {
          // a budget overrun thrown here reaches the caller as the cause of an InvalidClassException
          heap.charge(HeapBudget.SERIALIZED_OBJECT * Math.max(0, info.references() - references)
              + Math.max(0, info.arrayLength()) * 8);
          references = Math.max(references, info.references());
        }
        return ObjectInputFilter.Status.UNDECIDED;
      });
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
      String name = desc.getName();
      allow.checkInSerialForm(name);
      try {
        return Class.forName(name, false, allow.loader());
      } catch (ClassNotFoundException e) {
        return super.resolveClass(desc); // primitives' classes and the like
      }
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces) throws IOException, ClassNotFoundException {
      if (!allow.trusted()) {
        throw new InvalidClassException("dynamic proxy classes are refused unless loading with LoadOptions.trusted()");
      }
      return super.resolveProxyClass(interfaces);
    }
  }
}
