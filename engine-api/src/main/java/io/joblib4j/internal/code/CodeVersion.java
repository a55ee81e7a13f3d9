package io.joblib4j.internal.code;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.internal.code.ClassFiles.MethodCode;
import io.joblib4j.internal.code.ClassFiles.ParsedClass;
import io.joblib4j.internal.fn.ReplNames;
import io.joblib4j.internal.hash.StreamingHasher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The code version of a cached function: a hash of the bytecode of its method and of every method
 * of the user's code it reaches ({@link CodeScope}), so changing a helper it calls, in its class or
 * another, gives new cache entries. Recompiling unchanged code, moving lines or renaming locals
 * keeps the version.
 *
 * <p>The walk starts at the function's method and goes depth-first, in the order the code refers
 * to them, through: the lambda bodies it creates (hashed where they are made), the methods it calls
 * (static, virtual, interface, special, constructors) or takes references of, and the static
 * initializers of classes whose static fields it reads. A virtual or interface call follows the
 * method its instruction names (or the one that class inherits from user code), not overrides in
 * subclasses, which the walk cannot know. A method reached again is hashed as a reference to it,
 * so recursion ends. At most {@link CodeScope#MAX_METHODS} methods are hashed, at most {@link
 * CodeScope#MAX_DEPTH} calls deep; what lies beyond is hashed by name only.
 *
 * <p>REPL cell numbers and wrapper nesting ({@code $line7.$read$$iw}) are left out of the text
 * ({@link ReplNames}): they depend on how many cells ran before, so a restarted notebook would
 * otherwise find its unchanged code versioned anew.
 *
 * <p>A function that reaches no method of the user's code besides its own lambdas has the version
 * earlier joblib4j releases gave it, so its stored entries stay valid.
 *
 * <p>Versions are kept per class loader: a function identified again does not walk again.
 */
public final class CodeVersion {
  public static final int MAX_METHODS = CodeScope.MAX_METHODS;
  public static final int MAX_DEPTH = CodeScope.MAX_DEPTH;
  public static final String INCLUDE_PROPERTY = CodeScope.INCLUDE_PROPERTY;
  public static final String EXCLUDE_PROPERTY = CodeScope.EXCLUDE_PROPERTY;
  private static final Map<ClassLoader, Map<String, Optional<CodeVersion>>> CACHE = new WeakHashMap<>();

  private final String hex;
  private final List<String> methods;
  private final boolean truncated;

  private CodeVersion(String hex, List<String> methods, boolean truncated) {
    this.hex = hex;
    this.methods = methods;
    this.truncated = truncated;
  }

  /** The version as 32 hex digits. */
  public String hex() {
    return hex;
  }

  /** The methods hashed, in walk order ({@code com/acme/Scorer.score(I)D}). */
  public List<String> methods() {
    return methods;
  }

  /** Whether the bounds stopped the walk before it reached every method of the user's code. */
  public boolean truncated() {
    return truncated;
  }

  /**
   * The version of {@code owner.name descriptor} ({@code owner} a binary class name) as seen
   * through {@code loader}, or empty if its class file cannot be read (classes generated at run
   * time, some REPLs).
   */
  public static Optional<CodeVersion> of(ClassLoader loader, String owner, String name, String descriptor) {
    return of(loader, owner, name, descriptor, CodeScope.fromSystemProperties());
  }

  static Optional<CodeVersion> of(ClassLoader loader, String owner, String name, String descriptor, CodeScope scope) {
    ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
    Map<String, Optional<CodeVersion>> known;
    synchronized (CACHE) {
      known = CACHE.computeIfAbsent(l, k -> new ConcurrentHashMap<>());
    }
    String key = owner + "." + name + descriptor + "|" + scope.id();
    Optional<CodeVersion> v = known.get(key);
    if (v == null) {
      v = compute(l, owner.replace('.', '/'), name + descriptor, scope);
      known.putIfAbsent(key, v);
    }
    return v;
  }

  private static Optional<CodeVersion> compute(ClassLoader loader, String owner, String method, CodeScope scope) {
    Optional<ParsedClass> start = ClassFiles.get(loader, owner);
    if (start.isEmpty() || !start.get().methods().containsKey(method)) {
      return Optional.empty();
    }
    Walk walk = new Walk(loader, scope, start.get().location());
    walk.seen.add(owner + "." + method);
    walk.hashBody(start.get(), method, 0);
    return Optional.of(new CodeVersion(walk.hasher.hex(), List.copyOf(walk.walked), walk.truncated));
  }

  /** One walk: what was hashed, in order. */
  private static final class Walk {
    final ClassLoader loader;
    final CodeScope scope;
    final String startLocation;
    final StreamingHasher hasher = StreamingHasher.create(HashAlgorithm.XXH3_128);
    final Set<String> seen = new HashSet<>();
    final List<String> walked = new ArrayList<>();
    boolean truncated;

    Walk(ClassLoader loader, CodeScope scope, String startLocation) {
      this.loader = loader;
      this.scope = scope;
      this.startLocation = startLocation;
    }

    void hashBody(ParsedClass c, String method, int depth) {
      MethodCode code = c.methods().get(method);
      hasher.putString(ReplNames.canonicalize(code.text())); // a REPL cell's number is not code
      walked.add(c.name() + "." + method);
      for (MethodRef ref : code.refs()) {
        if (ref.kind() == MethodRef.Kind.LAMBDA) {
          // part of this method: always hashed, and nothing written when met again (as versions always were)
          if (seen.add(ref.key())) {
            hashBody(c, ref.name() + ref.desc(), depth);
          }
        } else {
          follow(ref, depth + 1);
        }
      }
    }

    void follow(MethodRef ref, int depth) {
      if (ref.owner().startsWith("[")) {
        return; // array methods (clone) are the JDK's
      }
      ParsedClass declaring = declaring(ref);
      if (declaring == null) {
        return; // not the user's code: the call's text in the caller is all that counts
      }
      String key = declaring.name() + "." + ref.name() + ref.desc();
      if (seen.contains(key)) {
        hasher.putString("@again:" + ReplNames.canonicalize(key));
        return;
      }
      if (walked.size() >= scope.maxMethods || depth > scope.maxDepth) {
        truncated = true;
        hasher.putString("@unwalked:" + ReplNames.canonicalize(key));
        return;
      }
      seen.add(key);
      hasher.putString("@call:" + ReplNames.canonicalize(key));
      hashBody(declaring, ref.name() + ref.desc(), depth);
    }

    /** The user class whose code a reference runs: the named class, or the user class it inherits it from. */
    private ParsedClass declaring(MethodRef ref) {
      String method = ref.name() + ref.desc();
      ParsedClass named = userClass(ref.owner());
      if (named == null) {
        return null;
      }
      if (ref.kind() == MethodRef.Kind.STATIC_INIT || ref.name().equals("<init>")) {
        return named.methods().containsKey(method) ? named : null;
      }
      for (ParsedClass c = named; c != null; c = c.superName() == null ? null : userClass(c.superName())) {
        if (c.methods().containsKey(method)) {
          return c;
        }
      }
      return fromInterfaces(named, method, new HashSet<>());
    }

    /** A default method of a user interface of {@code c} or its user superclasses. */
    private ParsedClass fromInterfaces(ParsedClass c, String method, Set<String> visited) {
      for (ParsedClass k = c; k != null; k = k.superName() == null ? null : userClass(k.superName())) {
        for (String i : k.interfaces()) {
          ParsedClass itf = visited.add(i) ? userClass(i) : null;
          if (itf == null) {
            continue;
          }
          if (itf.methods().containsKey(method)) {
            return itf;
          }
          ParsedClass deeper = fromInterfaces(itf, method, visited);
          if (deeper != null) {
            return deeper;
          }
        }
      }
      return null;
    }

    private ParsedClass userClass(String internalName) {
      if (!scope.isUserCode(internalName, () -> ClassFiles.location(loader, internalName), startLocation)) {
        return null;
      }
      return ClassFiles.get(loader, internalName).orElse(null);
    }
  }
}
