package io.joblib4j.internal.memory;


import io.joblib4j.HashAlgorithm;
import io.joblib4j.UnhashableValueException;
import io.joblib4j.internal.hash.StreamingHasher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The call key of a memoized function: the xxHash3-128 of its identity, code version, captured
 * values and the arguments that are not ignored — so equal calls share an entry in any JVM, and
 * a change of code or argument gives a new one. Also the short argument descriptions of
 * metadata.json.
 */
final class CallKeys {
  private final FunctionIdentity function;
  private final boolean[] ignored;
  private final String capturedHash;

  CallKeys(FunctionIdentity function, int arity, CallOptions options) {
    this.function = function;
    this.ignored = new boolean[arity];
    for (int p : options.ignoredPositions()) {
      if (p < 0 || p >= arity) {
        throw new IllegalArgumentException("ignore(" + p + "): " + function.name() + " takes " + arity
            + " argument" + (arity == 1 ? "" : "s") + ", positions 0 to " + (arity - 1));
      }
      ignored[p] = true;
    }
    if (!options.ignoredNames().isEmpty()) {
      List<String> names = function.parameterNames().orElseThrow(() -> new IllegalArgumentException(
          "ignore(" + String.join(", ", options.ignoredNames()) + "): the parameter names of " + function.name()
              + " are not in its class file. Compile with -parameters (javac -parameters, or"
              + " <parameters>true</parameters> in maven-compiler-plugin), or ignore by position."));
      for (String n : options.ignoredNames()) {
        int at = names.indexOf(n);
        if (at < 0) {
          throw new IllegalArgumentException("ignore(\"" + n + "\"): " + function.name() + " has no parameter \""
              + n + "\"; its parameters are " + names);
        }
        ignored[at] = true;
      }
    }
    this.capturedHash = capturedHash(function);
  }

  /**
   * The hash of the captured values, as one list. Computed once per memoized function: an object a
   * function captured is hashed as it is at the first call, later changes to its fields are not seen.
   */
  static String capturedHash(FunctionIdentity function) {
    try {
      return StreamingHasher.create(HashAlgorithm.XXH3_128).putValue(function.captured()).hex();
    } catch (UnhashableValueException e) {
      String first = e.path().isEmpty() ? "" : e.path().get(0);
      int at = first.startsWith("[") ? Integer.parseInt(first.substring(1, first.length() - 1)) : -1;
      if (at >= 0 && at < function.capturedLabels().size()) {
        e.relabelFirst(function.capturedLabels().get(at));
      }
      throw e.advise("Captured values join the call key of " + function.name() + ": capture only what it needs"
          + " (a static method, or a lambda over local values), or pass the value as an argument, and ignore(...)"
          + " that argument if it does not change the result.");
    }
  }

  String key(Object[] args) {
    StreamingHasher h = StreamingHasher.create(HashAlgorithm.XXH3_128)
        .putString(function.id()).putString(function.codeVersion()).putString(capturedHash)
        .putLong(args.length);
    for (int i = 0; i < args.length; i++) {
      if (!ignored[i]) {
        try {
          h.putLong(i).putValue(args[i]);
        } catch (UnhashableValueException e) {
          int at = i;
          String name = function.parameterNames().map(n -> " (" + n.get(at) + ")").orElse("");
          throw e.within("argument " + i + name).advise("Arguments join the call key of " + function.name()
              + ": ignore(...) this one if it does not change the result, or pass a record of the data it stands for.");
        }
      }
    }
    return h.hex();
  }

  /**
   * The parts of the key of a call with {@code args}: the captured values' hash and each argument's
   * own hash (null where ignored). Hashed again apart from the key, so only where they are recorded
   * (a store) or compared ({@code explain}), never on a hit.
   */
  CallHashes parts(Object[] args) {
    List<String> hashes = new ArrayList<>(args.length);
    for (int i = 0; i < args.length; i++) {
      hashes.add(ignored[i] ? null : StreamingHasher.create(HashAlgorithm.XXH3_128).putValue(args[i]).hex());
    }
    return new CallHashes(capturedHash, hashes);
  }

  /** The names of the parameters where known, else {@code arg0}, {@code arg1}, .... */
  List<String> names(int arity) {
    List<String> names = function.parameterNames().orElse(null);
    List<String> out = new ArrayList<>(arity);
    for (int i = 0; i < arity; i++) {
      out.add(names != null ? names.get(i) : "arg" + i);
    }
    return out;
  }

  boolean ignored(int position) {
    return ignored[position];
  }

  /** Each argument by name (or position) and a short description of its value. */
  Map<String, String> describe(Object[] args) {
    List<String> names = function.parameterNames().orElse(null);
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String name = names != null ? names.get(i) : "arg" + i;
      out.put(name, ignored[i] ? "<ignored>" : shortly(args[i]));
    }
    return out;
  }

  static String shortly(Object v) {
    return io.joblib4j.spi.upkeep.KeyParts.describe(v);
  }

  static String joined(Object[] args) {
    List<String> parts = new ArrayList<>();
    for (Object a : args) {
      parts.add(shortly(a));
    }
    return String.join(", ", parts);
  }
}
