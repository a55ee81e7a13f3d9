package io.joblib4j.internal.parallel;

import io.joblib4j.Delayed;
import io.joblib4j.array.NDArray;
import java.lang.ref.WeakReference;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A rough, cheap estimate of the heap bytes a task or a result holds, so that auto batching can cap
 * a batch by bytes as well as by count without serializing anything. It walks the object graph a
 * few levels deep and at most {@link #MAX_NODES} objects wide: primitive arrays, strings, boxed
 * values and {@link NDArray}s by their length; the JDK's and Scala's collections and maps, and
 * object arrays, by their size times the estimate of a few sampled elements; other objects by
 * their field layout (cached per class) plus what their reference fields hold, where reflection
 * may read them (no method of a user's class is called). Classes, enums and memory-mapped arrays
 * count nothing.
 *
 * <p>A large object (at least {@link #LARGE} bytes) met again — an array every task of a call
 * receives, or that a lambda captures — counts once: the estimator remembers the last few large
 * objects it saw (weakly, so it keeps none alive), and the second sighting counts nothing. That is
 * what sharing costs the caller's heap: one copy, however many tasks refer to it.
 *
 * <p>Not thread-safe; a call uses one instance under its own lock.
 */
final class HeapFootprint {
  /** Objects at least this large are remembered, so that a shared one counts once. */
  static final long LARGE = 4096;
  /** The most objects one estimate visits; the rest of a graph is extrapolated or ignored. */
  static final int MAX_NODES = 256;
  private static final int MAX_DEPTH = 4;
  private static final int SAMPLED_ELEMENTS = 3;
  private static final int REMEMBERED = 8;

  private static final ClassValue<Layout> LAYOUTS = new ClassValue<>() {
    @Override
    protected Layout computeValue(Class<?> type) {
      return Layout.of(type);
    }
  };

  @SuppressWarnings("unchecked")
  private final WeakReference<Object>[] recentLarge = new WeakReference[REMEMBERED];
  private int nextSlot;
  private int nodes;

  /** The estimated heap bytes of {@code task}: the task object, its function and its arguments. */
  long ofTask(Delayed<?> task) {
    nodes = 0;
    List<Object> args = task.arguments();
    long bytes = 32 + 16 + 4L * args.size() + guarded(task.function(), 1);
    for (Object arg : args) {
      bytes += guarded(arg, 1);
    }
    return bytes;
  }

  /** The estimated heap bytes of {@code value}. */
  long of(Object value) {
    nodes = 0;
    return guarded(value, 0);
  }

  /** A user's collection or class may throw while being looked at: it then counts as a small object. */
  private long guarded(Object v, int depth) {
    try {
      return walk(v, depth);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      return 64;
    }
  }

  private long walk(Object v, int depth) {
    if (v == null || v instanceof Class<?> || v instanceof Enum<?> || ++nodes > MAX_NODES) {
      return 0;
    }
    if (v instanceof Integer || v instanceof Float || v instanceof Short || v instanceof Byte
        || v instanceof Character || v instanceof Boolean) {
      return 16;
    }
    if (v instanceof Long || v instanceof Double) {
      return 24;
    }
    if (v instanceof String s) {
      return 40 + s.length();
    }
    long primitive = primitiveArrayBytes(v);
    if (primitive >= 0) {
      return counted(v, primitive);
    }
    if (v instanceof NDArray a) {
      return a.isMapped() ? 64 : counted(v, 64 + a.nbytes());
    }
    boolean deeper = depth < MAX_DEPTH;
    if (v instanceof Object[] array) {
      long bytes = 16 + 4L * array.length;
      if (deeper && array.length > 0) {
        bytes += sampled(array, depth + 1);
      }
      return counted(v, bytes);
    }
    if (v instanceof Collection<?> c && wellKnown(v)) {
      int size = c.size();
      long bytes = 24 + 16L * size;
      if (deeper && size > 0) {
        bytes += (long) size * walk(c.iterator().next(), depth + 1);
      }
      return counted(v, bytes);
    }
    if (v instanceof Map<?, ?> m && wellKnown(v)) {
      int size = m.size();
      long bytes = 48 + 36L * size;
      if (deeper && size > 0) {
        Map.Entry<?, ?> e = m.entrySet().iterator().next();
        bytes += (long) size * (walk(e.getKey(), depth + 1) + walk(e.getValue(), depth + 1));
      }
      return counted(v, bytes);
    }
    Layout layout = LAYOUTS.get(v.getClass());
    long bytes = layout.shallow;
    if (deeper) {
      for (Field f : layout.references) {
        try {
          bytes += walk(f.get(v), depth + 1);
        } catch (IllegalAccessException | RuntimeException unreadable) {
          // a field reflection may not read: its object counts as its layout only
        }
      }
    }
    return counted(v, bytes);
  }

  /**
   * Whether {@code v}'s own methods may be called to size it: the JDK's and Scala's collections. A
   * user's collection may do anything in {@code size()} (load from a database, block), so it is
   * sized by its fields, as any other object; reading a field runs no code.
   */
  private static boolean wellKnown(Object v) {
    String name = v.getClass().getName();
    return name.startsWith("java.") || name.startsWith("scala.");
  }

  /** The average of a few elements spread over {@code array}, times its length. */
  private long sampled(Object[] array, int depth) {
    int n = array.length;
    int samples = Math.min(n, SAMPLED_ELEMENTS);
    long sum = 0;
    for (int i = 0; i < samples; i++) {
      sum += walk(array[(int) ((long) i * (n - 1) / Math.max(1, samples - 1))], depth);
    }
    return sum * n / samples;
  }

  /** {@code bytes}, or nothing if {@code v} is a large object this estimator has met before. */
  private long counted(Object v, long bytes) {
    if (bytes < LARGE) {
      return bytes;
    }
    for (WeakReference<Object> r : recentLarge) {
      if (r != null && r.get() == v) {
        return 0;
      }
    }
    recentLarge[nextSlot] = new WeakReference<>(v);
    nextSlot = (nextSlot + 1) % REMEMBERED;
    return bytes;
  }

  private static long primitiveArrayBytes(Object v) {
    Class<?> element = v.getClass().getComponentType();
    if (element == null || !element.isPrimitive()) {
      return -1;
    }
    return 16L + (long) Array.getLength(v) * width(element);
  }

  /** The bytes of a primitive value of type {@code primitive}. */
  private static int width(Class<?> primitive) {
    return primitive == long.class || primitive == double.class ? 8
        : primitive == int.class || primitive == float.class ? 4
        : primitive == short.class || primitive == char.class ? 2 : 1;
  }

  /** A class's instance size and the reference fields reflection may read. */
  private record Layout(long shallow, Field[] references) {
    static Layout of(Class<?> type) {
      long size = 12;
      List<Field> refs = new ArrayList<>();
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers())) {
            continue;
          }
          Class<?> t = f.getType();
          if (!t.isPrimitive()) {
            size += 4;
            if (f.trySetAccessible()) {
              refs.add(f);
            }
          } else {
            size += width(t);
          }
        }
      }
      return new Layout((size + 7) & ~7L, refs.toArray(new Field[0]));
    }
  }
}
