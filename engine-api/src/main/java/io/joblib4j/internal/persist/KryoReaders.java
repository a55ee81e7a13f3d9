package io.joblib4j.internal.persist;

import com.esotericsoftware.kryo.kryo5.Kryo;
import com.esotericsoftware.kryo.kryo5.Registration;
import com.esotericsoftware.kryo.kryo5.util.DefaultClassResolver;
import com.esotericsoftware.kryo.kryo5.util.MapReferenceResolver;
import java.lang.ref.SoftReference;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The Kryo instances that read payloads: one kept per thread and reused by its next loads, since
 * making one (Kryo registers some sixty default serializers) cost more than reading a small payload.
 * Each read sees what a new Kryo would: classes go through that load's {@link AllowList} and its
 * class loader, objects are charged to its {@link HeapBudget}, and nothing resolved by name outlives
 * the payload. A reader that registered a class of a loader that can go away (a REPL's, a Spark
 * task's) is dropped instead of kept, so that no thread holds on to such a loader; a kept reader is
 * softly held, and a read that starts while the thread's reader is busy (a load inside a load)
 * makes its own.
 */
final class KryoReaders {
  private static final ThreadLocal<SoftReference<Reader>> IDLE = new ThreadLocal<>();
  /** Loaders that live as long as the JVM (or as joblib4j): classes of theirs may stay registered. */
  private static final Set<ClassLoader> LASTING = new HashSet<>(Arrays.asList(ClassLoader.getPlatformClassLoader(),
      ClassLoader.getSystemClassLoader(), KryoReaders.class.getClassLoader())); // often the same loader twice

  private KryoReaders() {}

  /**
   * Reads the object in {@code bytes} with classes checked by {@code allow} and loaded through its
   * loader, nesting up to {@code maxDepth}, objects charged to {@code heap}.
   */
  static Object read(byte[] bytes, AllowList allow, int maxDepth, HeapBudget heap) {
    SoftReference<Reader> idle = IDLE.get();
    Reader r = idle == null ? null : idle.get();
    IDLE.remove(); // busy: a load inside this one makes its own reader
    if (r == null) {
      r = new Reader();
    }
    r.begin(allow, maxDepth, heap);
    try {
      return r.codec.read(bytes);
    } finally {
      if (r.end()) {
        IDLE.set(new SoftReference<>(r));
      }
    }
  }

  private static final class Reader {
    private final CheckedClasses classes = new CheckedClasses();
    private final ChargedReferences references = new ChargedReferences();
    private final KryoCodec codec = new KryoCodec(
        KryoCodec.configure(new KryoCodec.BoundedKryo(classes, references), KryoReaders.class.getClassLoader(), 1));

    void begin(AllowList allow, int maxDepth, HeapBudget heap) {
      classes.allow = allow;
      references.heap = heap;
      Kryo k = codec.kryo();
      k.setClassLoader(allow.loader());
      k.setMaxDepth(maxDepth);
    }

    /** Forgets the load; whether this reader may be kept for the thread's next one. */
    boolean end() {
      classes.allow = null;
      references.heap = null;
      codec.kryo().setClassLoader(KryoReaders.class.getClassLoader());
      return !classes.registeredAPassingLoader;
    }
  }

  /** Checks every class name against the load's allow-list before Kryo loads the class. */
  private static final class CheckedClasses extends DefaultClassResolver {
    AllowList allow;
    boolean registeredAPassingLoader;

    @Override
    protected Class<?> getTypeByName(String className) {
      allow.check(className); // before Kryo's Class.forName, so before any instance
      return super.getTypeByName(className);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Registration registerImplicit(Class type) {
      ClassLoader l = type.getClassLoader();
      if (l != null && !LASTING.contains(l)) {
        registeredAPassingLoader = true;
      }
      return super.registerImplicit(type);
    }

    @Override
    public void reset() {
      super.reset();
      if (nameToClass != null) {
        nameToClass.clear(); // names resolve again in the next payload, through its load's loader and allow-list
      }
    }
  }

  /** Charges each object read to the load's heap budget (a small estimate each). */
  private static final class ChargedReferences extends MapReferenceResolver {
    HeapBudget heap;

    @Override
    public void setReadObject(int id, Object object) {
      heap.charge(HeapBudget.SERIALIZED_OBJECT);
      super.setReadObject(id, object);
    }
  }
}
