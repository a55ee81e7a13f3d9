package io.joblib4j.internal.memory;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.internal.code.CodeVersion;
import io.joblib4j.internal.fn.Forwarders;
import io.joblib4j.internal.fn.Lambdas;
import io.joblib4j.internal.fn.ReplNames;
import io.joblib4j.internal.hash.ValueHasher;
import io.joblib4j.spi.support.Warnings;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.Type;

/**
 * Who a cached function is, independent of where its jar lives: for a lambda or method reference,
 * the implementation class and method (read from its {@link SerializedLambda}) and the values it
 * captured; for an object implementing {@code FnN}, its class's {@code invoke} and its fields. Its
 * code version is the hash of that method's bytecode and of the user's code it reaches ({@link
 * CodeVersion}).
 *
 * @param id the full identity: {@code com.acme.Scorer#score(I)D}
 * @param name a short name for people ({@code Scorer.score})
 * @param folder the store folder of the function: its sanitized name and a hash of {@code id}
 * @param codeVersion the bytecode hash, or {@code "unknown"} if the class file cannot be read
 * @param captured the values the function captured (they join the call key)
 * @param capturedLabels how an error names each captured value: {@code captured arg 0 (this)}
 * @param parameterNames the names of the call's arguments, or empty if not compiled with {@code -parameters}
 * @param resultType the declared result class, allowed on load by default
 * @param lambda whether the implementation is a compiler-named lambda body
 */
record FunctionIdentity(
    String id,
    String name,
    String folder,
    String codeVersion,
    List<Object> captured,
    List<String> capturedLabels,
    Optional<List<String>> parameterNames,
    Class<?> resultType,
    boolean lambda) {

  static final String UNKNOWN_VERSION = "unknown";
  private static final int MAX_FOLDER_NAME = 120;
  private static final Set<String> WARNED_UNREADABLE = ConcurrentHashMap.newKeySet();
  private static final Set<String> WARNED_TRUNCATED = ConcurrentHashMap.newKeySet();
  /** id -> code version seen in this JVM, to notice two different functions sharing an identity. */
  private static final ConcurrentHashMap<String, String> SEEN = new ConcurrentHashMap<>();

  /** The identity of {@code fn}, a function of {@code arity} arguments. */
  static FunctionIdentity of(Object function, int arity) {
    Object fn = Lambdas.unwrap(function); // an adapter (a Scala function as an Fn1) is never the identity
    Optional<SerializedLambda> form = Lambdas.serializedForm(fn);
    FunctionIdentity identity = form.isPresent() ? ofLambda(fn, form.get(), arity) : ofObject(fn, arity);
    String previous = SEEN.putIfAbsent(identity.id, identity.codeVersion);
    // a REPL cell redefining a def is expected, not a collision: its entries are cleared by version
    if (previous != null && !previous.equals(identity.codeVersion) && !identity.id.startsWith("$line")) {
      Warnings.warn(FunctionIdentity.class, "Possible name collision: two different functions are identified"
          + " as " + identity.id + " in this JVM (different code, perhaps two class loaders or REPL"
          + " cells defining the same name). Their cached results are kept apart by code version.");
    }
    return identity;
  }

  private static FunctionIdentity ofLambda(Object fn, SerializedLambda sl, int arity) {
    String owner = sl.getImplClass().replace('/', '.');
    String method = sl.getImplMethodName();
    String desc = sl.getImplMethodSignature();
    int kind = sl.getImplMethodKind();
    ClassLoader loader = fn.getClass().getClassLoader();
    List<Object> captured = new ArrayList<>();
    for (int i = 0; i < sl.getCapturedArgCount(); i++) {
      // a REPL cell's wrapper holds the whole notebook (every value of the cell and of the cells it
      // uses), not a value of the function's: like joblib's globals it stays out of the key
      Object arg = sl.getCapturedArg(i);
      captured.add(arg != null && ReplNames.isWrapper(arg.getClass().getName()) ? ReplCell.INSTANCE : arg);
    }
    int boundCount = captured.size();
    // a Scala method value (slow _) is the method it forwards to
    Optional<Forwarders.Target> target = method.startsWith("$anonfun$")
        ? Forwarders.target(loader, owner, method, desc) : Optional.empty();
    if (target.isPresent()) {
      owner = target.get().owner().replace('/', '.');
      method = target.get().name();
      desc = target.get().descriptor();
      kind = target.get().kind();
      boundCount = target.get().boundReceiver() || !captured.isEmpty() ? 1 : 0;
      if (kind == MethodHandleInfo.REF_invokeStatic) {
        boundCount = 0;
      }
    }
    String id = ReplNames.canonicalize(owner + "#" + method + desc); // no cell numbers: restarts hit
    String version = codeVersion(loader, owner, method, desc, id);
    Executable exec = find(loader, owner, method, desc);
    Optional<List<String>> declared = exec == null ? Optional.empty() : declaredNames(exec);
    Optional<List<String>> names = exec == null ? Optional.empty() : parameterNames(exec, declared, kind, boundCount, arity);
    Class<?> result = exec instanceof Method m ? m.getReturnType()
        : exec instanceof Constructor<?> c ? c.getDeclaringClass() : Object.class;
    boolean lambda = method.startsWith("lambda$");
    String folderOwner = ReplNames.isReplClass(owner) ? replFolderOwner(owner) : owner;
    // labels name the lambda's own captured values: by the target's parameters unless it forwards
    List<String> labels = capturedLabels(captured, target.isPresent() ? Optional.empty() : declared, kind);
    return new FunctionIdentity(id, Lambdas.describe(fn), folderName(folderOwner, method, id), version,
        List.copyOf(nullsAsMarkers(captured)), labels, names, result, lambda);
  }

  /** {@code captured arg 0 (this)}, {@code captured arg 1 (offset)}: the receiver, then leading parameters. */
  private static List<String> capturedLabels(List<Object> captured, Optional<List<String>> declared, int kind) {
    boolean bound = isInstanceCall(kind);
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < captured.size(); i++) {
      int param = bound ? i - 1 : i;
      String name = param < 0 ? "this"
          : declared.isPresent() && param < declared.get().size() ? declared.get().get(param)
          : captured.get(i) == null ? "null" : captured.get(i).getClass().getSimpleName();
      labels.add("captured arg " + i + " (" + name + ")");
    }
    return List.copyOf(labels);
  }

  private static boolean isInstanceCall(int kind) {
    return kind == MethodHandleInfo.REF_invokeVirtual || kind == MethodHandleInfo.REF_invokeInterface
        || kind == MethodHandleInfo.REF_invokeSpecial;
  }

  /** {@code repl} or {@code repl.Scorer}: the readable part of a REPL function's folder. */
  private static String replFolderOwner(String owner) {
    String user = ReplNames.userName(owner);
    return user.isEmpty() ? "repl" : "repl." + user;
  }

  private static FunctionIdentity ofObject(Object fn, int arity) {
    Class<?> cls = fn.getClass();
    // FnN's invoke, or apply for a Scala function object an adapter stands for
    Method invoke = publicMethod(cls, "invoke", arity);
    if (invoke == null) {
      invoke = publicMethod(cls, "apply", arity);
    }
    String name = invoke == null ? "invoke" : invoke.getName();
    String desc = invoke == null ? "" : Type.getMethodDescriptor(invoke);
    Class<?> declaring = invoke == null ? cls : invoke.getDeclaringClass();
    String id = ReplNames.canonicalize(cls.getName() + "#" + name + desc);
    String version = codeVersion(declaring.getClassLoader(), declaring.getName(), name, desc, id);
    Optional<List<String>> names = invoke == null ? Optional.empty()
        : parameterNames(invoke, declaredNames(invoke), MethodHandleInfo.REF_invokeVirtual, 1, arity);
    String folderOwner = ReplNames.isReplClass(cls.getName()) ? replFolderOwner(cls.getName()) : cls.getName();
    return new FunctionIdentity(id, Lambdas.describe(fn), folderName(folderOwner, name, id), version,
        List.of(fn), List.of("the function object (" + cls.getName() + ")"), names,
        invoke == null ? Object.class : invoke.getReturnType(), false);
  }

  private static Method publicMethod(Class<?> cls, String name, int arity) {
    return Arrays.stream(cls.getMethods())
        .filter(m -> m.getName().equals(name) && m.getParameterCount() == arity && !m.isBridge())
        .findFirst().orElse(null);
  }

  private static String codeVersion(ClassLoader loader, String owner, String method, String desc, String id) {
    Optional<CodeVersion> v = CodeVersion.of(loader, owner, method, desc);
    if (v.isEmpty() && WARNED_UNREADABLE.add(id)) {
      Warnings.warn(FunctionIdentity.class, "cannot read the bytecode of " + id + ": its cached results"
          + " will not be invalidated when its code changes. Define it in a class compiled to a jar or"
          + " folder on the classpath, or clear the cache by hand after changing it.");
    }
    if (v.isPresent() && v.get().truncated() && WARNED_TRUNCATED.add(id)) {
      Warnings.warn(FunctionIdentity.class, "the code version of " + id + " covers the first "
          + v.get().methods().size() + " methods of your code it reaches (up to " + CodeVersion.MAX_METHODS
          + " methods, " + CodeVersion.MAX_DEPTH + " calls deep): changes to methods beyond those do not"
          + " invalidate its cached results. Clear its cache by hand after changing them, or exclude"
          + " packages that are not yours with -D" + CodeVersion.EXCLUDE_PROPERTY + "=com.example.lib.");
    }
    return v.map(CodeVersion::hex).orElse(UNKNOWN_VERSION);
  }

  /** The names of the call's arguments, as the function's callers pass them. */
  private static Optional<List<String>> parameterNames(Executable exec, Optional<List<String>> declared, int kind,
      int capturedCount, int arity) {
    List<String> all = new ArrayList<>();
    boolean instanceCall = isInstanceCall(kind);
    if (instanceCall && capturedCount == 0) {
      all.add("this"); // an unbound method reference: the first argument is the receiver
    }
    if (declared.isEmpty()) {
      return Optional.empty();
    }
    all.addAll(declared.get());
    int skip = instanceCall ? Math.max(0, capturedCount - 1) : capturedCount;
    if (all.size() - skip != arity) {
      return Optional.empty();
    }
    return Optional.of(List.copyOf(all.subList(skip, all.size())));
  }

  /** The method's own parameter names: from {@code -parameters}, else from debug information. */
  private static Optional<List<String>> declaredNames(Executable exec) {
    Parameter[] params = exec.getParameters();
    if (Arrays.stream(params).allMatch(Parameter::isNamePresent)) {
      return Optional.of(Arrays.stream(params).map(Parameter::getName).toList());
    }
    boolean isStatic = java.lang.reflect.Modifier.isStatic(exec.getModifiers());
    String desc = exec instanceof Method m ? Type.getMethodDescriptor(m) : Type.getConstructorDescriptor((Constructor<?>) exec);
    String methodName = exec instanceof Method m ? m.getName() : "<init>";
    return ParameterNames.fromClassFile(exec.getDeclaringClass().getClassLoader(), exec.getDeclaringClass().getName(),
        methodName, desc, isStatic);
  }

  private static Executable find(ClassLoader loader, String owner, String method, String desc) {
    try {
      Class<?> c = Class.forName(owner, false, loader);
      if (method.equals("<init>")) {
        for (Constructor<?> k : c.getDeclaredConstructors()) {
          if (Type.getConstructorDescriptor(k).equals(desc)) {
            return k;
          }
        }
        return null;
      }
      for (Method m : c.getDeclaredMethods()) {
        if (m.getName().equals(method) && Type.getMethodDescriptor(m).equals(desc)) {
          return m;
        }
      }
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
    return null;
  }

  /**
   * A folder name no function name can turn into a path outside the store: only {@code
   * [A-Za-z0-9._-]}, at most 120 characters, never starting with a dot, and made unique by a hash of
   * the full identity.
   */
  static String folderName(String owner, String method, String id) {
    String readable = (owner + "." + method).replaceAll("[^A-Za-z0-9._-]", "_").replaceAll("^[._-]+", "");
    if (readable.length() > MAX_FOLDER_NAME) {
      readable = readable.substring(readable.length() - MAX_FOLDER_NAME).replaceAll("^[._-]+", "");
    }
    return (readable.isEmpty() ? "fn" : readable) + "-" + ValueHasher.hex(id, HashAlgorithm.XXH3_128).substring(0, 12).toLowerCase(Locale.ROOT);
  }

  private static List<Object> nullsAsMarkers(List<Object> values) {
    List<Object> out = new ArrayList<>(values.size());
    for (Object v : values) {
      out.add(v == null ? NullMarker.INSTANCE : v);
    }
    return out;
  }

  /** Stands for a captured null inside an immutable list. */
  enum NullMarker {
    INSTANCE
  }

  /** Stands for a captured REPL cell wrapper. */
  enum ReplCell {
    INSTANCE
  }
}
