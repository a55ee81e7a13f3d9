package io.joblib4j.internal.worker;

import io.joblib4j.Delayed;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.support.SerializedLambdas;
import io.joblib4j.spi.worker.ArgumentSharer;
import io.joblib4j.spi.worker.BatchFields;
import io.joblib4j.spi.worker.WireFormat;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.StreamCorruptedException;
import java.io.UTFDataFormatException;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Batches of plain tasks written without Java serialization, for workers that load the same class
 * files ({@link WireFormat#SAME_CLASS_FILES}). A plain task applies a serializable lambda or method
 * reference whose captured values and arguments are all {@link TaggedValues#isPlain plain}; the
 * lambda is written as the fields of its {@link SerializedLambda} and made again in the worker by
 * its class's {@code $deserializeLambda$}, as Java serialization would. Why: a fresh JVM's first
 * {@code ObjectOutputStream} and {@code ObjectInputStream} cost it tens of milliseconds of reflection
 * and generated accessors, most of a short program's first call. The batch's fields besides its
 * tasks are written by the backend's {@link BatchFields}. Any other batch is written by Java
 * serialization, as before; the first bytes tell the worker which it got.
 */
final class PlainBatches {
  /** A batch's first bytes ({@link PlainBytes#writeHeader}). */
  private static final int MAGIC = 'J' << 8 | 'B';
  /** Flag in a task's head byte: same function as the task before (the low bits count arguments). */
  private static final int SAME_FUNCTION = 0x80;

  private final BatchFields fields;
  /** The last function written and its form: the batches of a call usually share one. */
  private volatile Written last;

  PlainBatches(BatchFields fields) {
    this.fields = fields;
  }

  private static final class Written {
    final Object function;
    final byte[] form;

    Written(Object function, byte[] form) {
      this.function = function;
      this.form = form;
    }
  }

  /** Whether {@code bytes} are a batch {@link #encode} wrote. */
  static boolean isPlain(byte[] bytes) {
    return PlainBytes.startsWith(bytes, MAGIC);
  }

  /**
   * The bytes of {@code batch}, or null when it is not plain (Java serialization writes it then).
   *
   * @param replacer the batch's replacer: a value it would replace is not plain
   * @param whyWorkerCannotLoad why the worker cannot load a class, or null if it can; null checks nothing
   */
  byte[] encode(Batch batch, ArgumentSharer.Replacer replacer, Function<Class<?>, String> whyWorkerCannotLoad)
      throws IOException {
    if (!fields.knows(batch)) {
      return null;
    }
    try {
      return write(batch, replacer, whyWorkerCannotLoad);
    } catch (UTFDataFormatException e) {
      return null; // a name too long for writeUTF: Java serialization has no such limit
    }
  }

  private byte[] write(Batch batch, ArgumentSharer.Replacer replacer, Function<Class<?>, String> whyWorkerCannotLoad)
      throws IOException {
    List<Delayed<?>> tasks = batch.tasks();
    PlainBytes.Out bytes = new PlainBytes.Out(64 + 16 * tasks.size());
    DataOutputStream out = new DataOutputStream(bytes);
    PlainBytes.writeHeader(out, MAGIC, tasks.size());
    Object previous = null;
    for (Delayed<?> d : tasks) {
      List<Object> args = d.arguments();
      for (Object a : args) {
        if (!isPlain(a, replacer)) {
          return null;
        }
      }
      boolean same = previous != null && d.function() == previous;
      out.writeByte(args.size() | (same ? SAME_FUNCTION : 0));
      if (!same) {
        byte[] form = form(d.function(), replacer, whyWorkerCannotLoad);
        if (form == null) {
          return null;
        }
        out.write(form);
        previous = d.function();
      }
      for (Object a : args) {
        TaggedValues.writePlain(out, a);
      }
    }
    fields.write(batch, out);
    return bytes.toByteArray();
  }

  private static boolean isPlain(Object v, ArgumentSharer.Replacer replacer) throws IOException {
    return TaggedValues.isPlain(v) && (v == null || replacer.replace(v) == v);
  }

  /** The bytes of {@code fn}'s serialized lambda, or null if it is not one of plain values. */
  private byte[] form(Object fn, ArgumentSharer.Replacer replacer, Function<Class<?>, String> whyWorkerCannotLoad)
      throws IOException {
    Written w = last;
    if (w != null && w.function == fn) {
      return w.form;
    }
    Optional<SerializedLambda> found = SerializedLambdas.of(fn);
    if (found.isEmpty()) {
      return null;
    }
    SerializedLambda sl = found.get();
    Class<?> capturing;
    try {
      capturing = Class.forName(sl.getCapturingClass().replace('/', '.'), false, fn.getClass().getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
    // the worker calls the class's private $deserializeLambda$: only a class of no named module is
    // open to it; and a class the worker cannot load is for Java serialization to report
    if (capturing.getModule().isNamed()
        || whyWorkerCannotLoad != null && whyWorkerCannotLoad.apply(capturing) != null) {
      return null;
    }
    PlainBytes.Out bytes = new PlainBytes.Out(256);
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF(capturing.getName());
    out.writeUTF(sl.getFunctionalInterfaceClass());
    out.writeUTF(sl.getFunctionalInterfaceMethodName());
    out.writeUTF(sl.getFunctionalInterfaceMethodSignature());
    out.writeByte(sl.getImplMethodKind());
    out.writeUTF(sl.getImplClass());
    out.writeUTF(sl.getImplMethodName());
    out.writeUTF(sl.getImplMethodSignature());
    out.writeUTF(sl.getInstantiatedMethodType());
    out.writeShort(sl.getCapturedArgCount());
    for (int i = 0; i < sl.getCapturedArgCount(); i++) {
      Object v = sl.getCapturedArg(i);
      if (!isPlain(v, replacer)) {
        return null;
      }
      TaggedValues.writePlain(out, v);
    }
    byte[] form = bytes.toByteArray();
    last = new Written(fn, form);
    return form;
  }

  /** Reads a batch {@link PlainBatches#encode} wrote, counting the tasks read for error messages. */
  static final class Reader {
    private final BatchFields fields;
    private final ClassLoader loader;
    private int tasksRead;

    /** @param fields the batch fields the parent wrote with, or null if it was given none */
    Reader(BatchFields fields, ClassLoader loader) {
      this.fields = fields;
      this.loader = loader;
    }

    /** How many tasks were read completely; the task at this index is the one being read. */
    int tasksRead() {
      return tasksRead;
    }

    Batch read(byte[] bytes) throws IOException, ReflectiveOperationException {
      if (fields == null) {
        throw new StreamCorruptedException("a plain batch, but this worker was given no BatchFields to read it");
      }
      DataInputStream in = new DataInputStream(new PlainBytes.In(bytes));
      int n = PlainBytes.readHeader(in, MAGIC, bytes.length, "tasks");
      List<Delayed<?>> tasks = new ArrayList<>(n);
      Object fn = null;
      for (int i = 0; i < n; i++) {
        int head = in.readUnsignedByte();
        if ((head & SAME_FUNCTION) == 0) {
          fn = function(in);
        } else if (fn == null) {
          throw new StreamCorruptedException("the first task of a plain batch names no function");
        }
        Object[] args = new Object[head & ~SAME_FUNCTION];
        for (int k = 0; k < args.length; k++) {
          args[k] = TaggedValues.readPlain(in);
        }
        tasks.add(CompactTasks.delayed(fn, args));
        tasksRead++;
      }
      Batch batch = fields.read(in, tasks);
      PlainBytes.expectEnd(in, "tasks");
      return batch;
    }

    private Object function(DataInputStream in) throws IOException, ReflectiveOperationException {
      Class<?> capturing = ClassDescriptors.load(in.readUTF(), loader);
      String fi = in.readUTF();
      String fiName = in.readUTF();
      String fiSignature = in.readUTF();
      int kind = in.readUnsignedByte();
      String impl = in.readUTF();
      String implName = in.readUTF();
      String implSignature = in.readUTF();
      String instantiated = in.readUTF();
      Object[] captured = new Object[in.readUnsignedShort()];
      for (int i = 0; i < captured.length; i++) {
        captured[i] = TaggedValues.readPlain(in);
      }
      SerializedLambda form = new SerializedLambda(capturing, fi, fiName, fiSignature, kind, impl, implName,
          implSignature, instantiated, captured);
      Method deserialize;
      try {
        deserialize = capturing.getDeclaredMethod("$deserializeLambda$", SerializedLambda.class);
      } catch (NoSuchMethodException e) {
        throw new InvalidClassException(capturing.getName(), "has no serializable lambda to make " + form);
      }
      deserialize.setAccessible(true);
      try {
        return deserialize.invoke(null, form);
      } catch (InvocationTargetException e) {
        InvalidObjectException invalid = new InvalidObjectException("the lambda " + form + " cannot be made: "
            + e.getCause());
        invalid.initCause(e.getCause());
        throw invalid;
      }
    }
  }
}
