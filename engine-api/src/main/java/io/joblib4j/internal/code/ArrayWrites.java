package io.joblib4j.internal.code;

import io.joblib4j.fn.FunctionAdapter;
import io.joblib4j.internal.fn.Lambdas;
import io.joblib4j.internal.fn.WrapsFunction;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Which kinds of primitive array a task's function can store into, proven by reading the code it
 * reaches, or {@link #UNPROVEN}. A worker of the processes backend keeps its copy of a large array
 * from one call to the next and must make it equal to the parent's content again before the next
 * call, unless no task that held it can have written it: this is that proof.
 *
 * <p>The proof is conservative: whatever the reading cannot follow makes the function {@link
 * #UNPROVEN}. The function must be a serializable lambda or method reference (an object of a class
 * of the user's is not followed); from its method, every method of the user's code it calls is read
 * (a call whose target is chosen at run time is followed only when there is one possible target: a
 * static, private or final method, or one of a final class); an array store of a primitive kind
 * adds that kind. Unproven are: storing a reference into an array, or into a field of any type but
 * a {@code String} or a boxed primitive (an array could then be reached by code that is not read),
 * {@code invokedynamic} other than string concatenation of plain values, native and abstract
 * methods, and a call into the JDK that could reach an array: one taking a parameter other than a
 * primitive, a {@code String} or a boxed primitive, an instance method of a class that is not final
 * (its overrides are not read), or anything in reflection, method handles and {@code Unsafe}. A task
 * ({@link #ofTask}) is proven only if its values are plain too: an object of the user's runs code
 * of its own as it is deserialized and serialized.
 */
public final class ArrayWrites {
  /** The function was not proven: it may store into an array of any kind, or let one escape. */
  public static final int UNPROVEN = -1;
  /** How many methods one proof reads at most before giving up. */
  static final int MAX_METHODS = 1_000;

  private static final String OBJECT = "java/lang/Object";
  private static final Set<String> PLAIN_REFERENCES = Set.of("Ljava/lang/String;", "Ljava/lang/Integer;",
      "Ljava/lang/Long;", "Ljava/lang/Double;", "Ljava/lang/Float;", "Ljava/lang/Short;", "Ljava/lang/Byte;",
      "Ljava/lang/Character;", "Ljava/lang/Boolean;");
  /** JDK packages whose methods can reach any object's memory: never proven. */
  private static final List<String> UNSAFE_JDK = List.of("sun/", "jdk/internal/", "jdk/incubator/",
      "java/lang/invoke/", "java/lang/reflect/", "java/lang/foreign/", "java/lang/Class", "java/lang/ClassLoader");
  /**
   * joblib4j's adapters of Scala functions. Not memoized functions: Memory runs the user's own
   * hashing and persistence strategies on the arguments, which are not read here.
   */
  private static final Set<String> OWN_ADAPTERS = Set.of("io.joblib4j.scala.ScalaFn0", "io.joblib4j.scala.ScalaFn1",
      "io.joblib4j.scala.ScalaFn2", "io.joblib4j.scala.ScalaFn3", "io.joblib4j.scala.ScalaFn4",
      "io.joblib4j.scala.ScalaFn5", "io.joblib4j.scala.ScalaFn6", "io.joblib4j.scala.ScalaAction");
  /** JDK classes that are not final whose instance methods with plain parameters are still allowed. */
  private static final Set<String> OPEN_JDK_CLASSES = Set.of("java/io/PrintStream");

  /**
   * Proofs by function class: a lambda's class stands for one method whatever it captured, and any
   * other class is {@link #UNPROVEN} whatever the instance. Weak keys: a loader can still go.
   */
  private static final Map<Class<?>, Integer> PROVEN = Collections.synchronizedMap(new WeakHashMap<>());

  private ArrayWrites() {}

  /**
   * The kinds of primitive array {@code function}'s code can store into, as bits of {@link
   * #kind}, or {@link #UNPROVEN}. Read once per function class.
   */
  public static int of(Object function) {
    return ofUnwrapped(unwrapOwn(function));
  }

  private static int ofUnwrapped(Object fn) {
    if (fn == null) {
      return UNPROVEN;
    }
    Integer known = PROVEN.get(fn.getClass());
    if (known != null) {
      return known;
    }
    int writes;
    try {
      writes = prove(fn);
    } catch (RuntimeException | LinkageError e) {
      writes = UNPROVEN; // code the reading cannot follow is code that may write
    }
    PROVEN.putIfAbsent(fn.getClass(), writes);
    return writes;
  }

  /**
   * The kinds of primitive array a task can store into: {@link #of} its function, or {@link
   * #UNPROVEN} unless every value it runs with (its arguments, and what its lambda captured) is a
   * plain value. Any other object's class may run code of the user's that is not read here, as it is
   * deserialized in the worker (a {@code readObject} that scales an array field in place), called by
   * the JDK or serialized back as a result.
   */
  public static int ofTask(Object function, List<?> arguments) {
    Object fn = unwrapOwn(function);
    int writes = ofUnwrapped(fn);
    if (writes == UNPROVEN) {
      return UNPROVEN;
    }
    for (Object a : arguments) {
      if (!plainValue(a)) {
        return UNPROVEN;
      }
    }
    Optional<SerializedLambda> form = Lambdas.serializedForm(fn);
    if (form.isEmpty()) {
      return UNPROVEN;
    }
    for (int i = 0; i < form.get().getCapturedArgCount(); i++) {
      if (!plainValue(form.get().getCapturedArg(i))) {
        return UNPROVEN;
      }
    }
    return writes;
  }

  /** Null, a {@code String}, a boxed primitive or an array of primitives: no code of the user's, no other object. */
  private static boolean plainValue(Object v) {
    if (v == null) {
      return true;
    }
    Class<?> c = v.getClass();
    return c.isArray() ? c.getComponentType().isPrimitive() : PLAIN_REFERENCES.contains(Type.getDescriptor(c));
  }

  /** The bit of arrays of {@code componentType} (a primitive type), 0 for any other type. */
  public static int kind(Class<?> componentType) {
    if (!componentType.isPrimitive()) {
      return 0;
    }
    return kind(Type.getType(componentType).getDescriptor().charAt(0));
  }

  /** Whether {@code writes} (a result of {@link #of}) may have stored into an array of {@code componentType}. */
  public static boolean mayWrite(int writes, Class<?> componentType) {
    return writes == UNPROVEN || (writes & kind(componentType)) != 0;
  }

  private static int kind(char descriptor) {
    return switch (descriptor) {
      case 'Z', 'B' -> 1; // BASTORE stores both
      case 'C' -> 2;
      case 'S' -> 4;
      case 'I' -> 8;
      case 'J' -> 16;
      case 'F' -> 32;
      case 'D' -> 64;
      default -> 0;
    };
  }

  /**
   * Only joblib4j's own adapters, which call the function they adapt and nothing else that touches
   * its arguments, are looked through: another's adapter runs code of its own.
   */
  private static Object unwrapOwn(Object function) {
    Object fn = function;
    for (int i = 0; i < 16 && (fn instanceof FunctionAdapter || fn instanceof WrapsFunction); i++) {
      if (!OWN_ADAPTERS.contains(fn.getClass().getName())) {
        return fn;
      }
      Object inner = Lambdas.unwrap(fn);
      if (inner == fn) {
        return fn;
      }
      fn = inner;
    }
    return fn;
  }

  private static int prove(Object fn) {
    Optional<SerializedLambda> form = Lambdas.serializedForm(fn);
    if (form.isEmpty()) {
      return UNPROVEN;
    }
    SerializedLambda sl = form.get();
    ClassLoader loader = fn.getClass().getClassLoader();
    Reader reader = new Reader(loader != null ? loader : ClassLoader.getSystemClassLoader());
    int opcode = switch (sl.getImplMethodKind()) {
      case MethodHandleInfo.REF_invokeStatic -> Opcodes.INVOKESTATIC;
      case MethodHandleInfo.REF_invokeSpecial, MethodHandleInfo.REF_newInvokeSpecial -> Opcodes.INVOKESPECIAL;
      case MethodHandleInfo.REF_invokeVirtual -> Opcodes.INVOKEVIRTUAL;
      case MethodHandleInfo.REF_invokeInterface -> Opcodes.INVOKEINTERFACE;
      default -> -1;
    };
    if (opcode < 0) {
      return UNPROVEN;
    }
    return reader.reach(new Call(opcode, sl.getImplClass(), sl.getImplMethodName(), sl.getImplMethodSignature(), false));
  }

  /** A call instruction; {@code superInit} when a constructor calls its superclass's. */
  record Call(int opcode, String owner, String name, String desc, boolean superInit) {}

  /** What one method does, as far as the proof cares. */
  static final class MethodFacts {
    final int access;
    int stores;
    boolean unproven;
    final List<Call> calls = new ArrayList<>();

    MethodFacts(int access) {
      this.access = access;
    }
  }

  /** A class of the user's code: its flags, superclass and methods' facts. */
  record ClassFacts(int access, String superName, Map<String, MethodFacts> methods) {}

  /** One proof's reading: the classes it parsed, the methods it reached. */
  private static final class Reader {
    private static final Optional<Class<?>> NOT_LOADED = Optional.of(Reader.class);
    private final ClassLoader loader;
    private final Map<String, Optional<ClassFacts>> classes = new HashMap<>();
    private final Map<String, Optional<Class<?>>> jdk = new HashMap<>();

    Reader(ClassLoader loader) {
      this.loader = loader;
    }

    int reach(Call entry) {
      Deque<Call> pending = new ArrayDeque<>();
      Set<String> seen = new HashSet<>();
      pending.add(entry);
      int writes = 0;
      while (!pending.isEmpty()) {
        Call call = pending.poll();
        if (!seen.add(call.opcode() + call.owner() + '.' + call.name() + call.desc())) {
          continue;
        }
        if (seen.size() > MAX_METHODS) {
          return UNPROVEN;
        }
        MethodFacts target = resolve(call);
        if (target == ALLOWED_JDK) {
          continue;
        }
        if (target == null || target.unproven) {
          return UNPROVEN;
        }
        writes |= target.stores;
        pending.addAll(target.calls);
      }
      return writes;
    }

    private static final MethodFacts ALLOWED_JDK = new MethodFacts(0);

    /** The code a call runs: facts of the user's method, {@link #ALLOWED_JDK}, or null when not proven. */
    private MethodFacts resolve(Call call) {
      if (call.owner().startsWith("[")) {
        return ALLOWED_JDK; // clone, getClass, hashCode of an array: none writes
      }
      Optional<Class<?>> jdkClass = jdkClass(call.owner());
      if (jdkClass == null) {
        return null;
      }
      if (jdkClass.isPresent()) {
        return jdkAllowed(call, jdkClass.get()) ? ALLOWED_JDK : null;
      }
      boolean virtual = call.opcode() == Opcodes.INVOKEVIRTUAL || call.opcode() == Opcodes.INVOKEINTERFACE;
      String owner = call.owner();
      boolean ownerFinal = false;
      for (int depth = 0; depth < 64; depth++) {
        Optional<ClassFacts> c = classFacts(owner);
        if (c.isEmpty()) {
          return null;
        }
        if (depth == 0) {
          ownerFinal = (c.get().access() & Opcodes.ACC_FINAL) != 0;
        }
        MethodFacts m = c.get().methods().get(call.name() + call.desc());
        if (m != null) {
          if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return null;
          }
          boolean exact = !virtual || ownerFinal || (m.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0;
          return exact ? m : null;
        }
        if (call.name().equals("<init>") || c.get().superName() == null) {
          return null;
        }
        owner = c.get().superName();
        Optional<Class<?>> up = jdkClass(owner);
        if (up == null) {
          return null;
        }
        if (up.isPresent()) {
          // a static method a class of the user's inherits from the JDK; an instance method would run with the user's object
          return call.opcode() == Opcodes.INVOKESTATIC && jdkAllowed(call, up.get()) ? ALLOWED_JDK : null;
        }
      }
      return null;
    }

    /** Whether a call into the JDK can neither reach an array nor run code of the user's. */
    private static boolean jdkAllowed(Call call, Class<?> owner) {
      String name = call.owner();
      for (String prefix : UNSAFE_JDK) {
        if (name.startsWith(prefix)) {
          return false;
        }
      }
      if (!plainParameters(call.desc())) {
        return false;
      }
      return switch (call.opcode()) {
        case Opcodes.INVOKESTATIC -> true;
        // a constructor called by a subclass's runs with the user's object (and may call its overrides)
        case Opcodes.INVOKESPECIAL -> call.name().equals("<init>")
            && (!call.superInit() || name.equals(OBJECT));
        default -> Modifier.isFinal(owner.getModifiers()) || OPEN_JDK_CLASSES.contains(name);
      };
    }

    /**
     * The JDK's class {@code internalName}; empty for a class of the user's code (any loader but the
     * boot and platform loaders); null when it cannot be loaded.
     */
    private Optional<Class<?>> jdkClass(String internalName) {
      Optional<Class<?>> c = jdk.computeIfAbsent(internalName, this::load);
      return c == NOT_LOADED ? null : c;
    }

    private Optional<Class<?>> load(String internalName) {
      try {
        Class<?> c = Class.forName(internalName.replace('/', '.'), false, loader);
        ClassLoader l = c.getClassLoader();
        return l == null || l == ClassLoader.getPlatformClassLoader() ? Optional.of(c) : Optional.empty();
      } catch (ClassNotFoundException | LinkageError e) {
        return NOT_LOADED;
      }
    }

    private Optional<ClassFacts> classFacts(String internalName) {
      return classes.computeIfAbsent(internalName, n -> {
        try (InputStream in = loader.getResourceAsStream(n + ".class")) {
          return in == null ? Optional.empty() : Optional.of(read(new ClassReader(in)));
        } catch (IOException | RuntimeException e) {
          return Optional.empty();
        }
      });
    }
  }

  private static boolean plainParameters(String desc) {
    for (Type t : Type.getArgumentTypes(desc)) {
      if (!plain(t.getDescriptor())) {
        return false;
      }
    }
    return true;
  }

  /** A primitive, a {@code String} or a boxed primitive: a value that cannot lead to an array. */
  private static boolean plain(String descriptor) {
    return descriptor.length() == 1 || PLAIN_REFERENCES.contains(descriptor);
  }

  static ClassFacts read(ClassReader reader) {
    Map<String, MethodFacts> methods = new HashMap<>();
    String superName = reader.getSuperName();
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        MethodFacts facts = new MethodFacts(access);
        methods.put(name + desc, facts);
        boolean constructor = name.equals("<init>");
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitInsn(int opcode) {
            switch (opcode) {
              case Opcodes.BASTORE -> facts.stores |= kind('B');
              case Opcodes.CASTORE -> facts.stores |= kind('C');
              case Opcodes.SASTORE -> facts.stores |= kind('S');
              case Opcodes.IASTORE -> facts.stores |= kind('I');
              case Opcodes.LASTORE -> facts.stores |= kind('J');
              case Opcodes.FASTORE -> facts.stores |= kind('F');
              case Opcodes.DASTORE -> facts.stores |= kind('D');
              case Opcodes.AASTORE -> facts.unproven = true; // an array held where unread code may find it
              default -> { }
            }
          }

          @Override
          public void visitFieldInsn(int opcode, String owner, String field, String fieldDesc) {
            if ((opcode == Opcodes.PUTFIELD || opcode == Opcodes.PUTSTATIC) && !plain(fieldDesc)) {
              facts.unproven = true;
            }
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String callee, String calleeDesc, boolean itf) {
            boolean superInit = constructor && opcode == Opcodes.INVOKESPECIAL && callee.equals("<init>")
                && owner.equals(superName);
            facts.calls.add(new Call(opcode, owner, callee, calleeDesc, superInit));
          }

          @Override
          public void visitInvokeDynamicInsn(String indyName, String indyDesc, Handle bootstrap, Object... args) {
            boolean concat = bootstrap.getOwner().equals("java/lang/invoke/StringConcatFactory");
            if (!concat || !plainParameters(indyDesc)) {
              facts.unproven = true; // a lambda made here, or toString() of an object of the user's
            }
          }
        };
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return new ClassFacts(reader.getAccess(), superName, methods);
  }
}
