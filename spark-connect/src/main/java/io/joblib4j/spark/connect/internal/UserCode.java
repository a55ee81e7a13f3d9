package io.joblib4j.spark.connect.internal;

import io.joblib4j.fn.FunctionAdapter;
import java.lang.invoke.SerializedLambda;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The code a Connect session's executors need for one backend's calls, found where the client
 * loaded it and given to the session before the operation that needs it: every class written into
 * a batch, an initializer or a shared argument is noted (the codec reports each class once per
 * batch), and its jar, its class folder (as a jar), its REPL output folder (through the client's
 * class finder) or, for a class kept in memory whose loader serves its class file, that file (with
 * its member classes') is added once per session. Code the server has anyway — the JDK, the Connect client
 * and Scala — is never sent.
 */
final class UserCode {
  private static final Logger LOG = LoggerFactory.getLogger(UserCode.class);
  /** Where the Connect client and Scala were loaded from: the server has its own. */
  private static final Set<Path> PLATFORM = platform();
  private static final Set<ClassLoader> WARNED = ConcurrentHashMap.newKeySet();

  private final SparkSession session;
  private final Set<CodeLocation> seen = ConcurrentHashMap.newKeySet();
  private final Set<CodeLocation> pending = new LinkedHashSet<>();
  /** Class files of classes kept in memory (a REPL's, a notebook's), by their path in a class folder. */
  private final Set<String> seenInMemory = ConcurrentHashMap.newKeySet();
  private final Map<String, byte[]> pendingInMemory = new LinkedHashMap<>();

  UserCode(SparkSession session) {
    this.session = session;
  }

  /**
   * Notes where {@code type}'s code is. Shaped for {@code BatchCodec.Builder.refuseClasses}: it
   * never refuses (null), as the server may have a class this client cannot ship.
   */
  String note(Class<?> type) {
    note(CodeLocation.of(type), type);
    return null;
  }

  /** Notes a task's function: its class and, through adapters (Scala's), the function it wraps. */
  void noteFunction(Object function) {
    Object f = function;
    for (int depth = 0; f != null && depth < 8; depth++) {
      note(f.getClass());
      f = f instanceof FunctionAdapter a ? a.adaptedFunction() : null;
    }
  }

  /** Notes the class a serializable lambda was written in, which the executor needs to recreate it. */
  void noteLambda(SerializedLambda lambda) {
    String name = lambda.getCapturingClass().replace('/', '.');
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    try {
      note(Class.forName(name, false, loader != null ? loader : UserCode.class.getClassLoader()));
    } catch (ClassNotFoundException | LinkageError notHere) {
      // a class this JVM cannot see cannot be shipped from here either
    }
  }

  /** Notes a jar or class folder the user named (the {@code jars} option) or joblib4j's own. */
  void note(CodeLocation location) {
    note(location, null);
  }

  private void note(CodeLocation location, Class<?> type) {
    switch (location.kind()) {
      case JAR, FOLDER, REPL_FOLDER -> {
        if (!PLATFORM.contains(location.path()) && seen.add(location)) {
          synchronized (this) {
            pending.add(location);
          }
        }
      }
      case IN_MEMORY -> {
        if (type == null) {
          return;
        }
        String file = InMemoryClasses.classFile(type);
        if (seenInMemory.contains(file)) {
          return;
        }
        Map<String, byte[]> found = InMemoryClasses.withMembers(type);
        if (!found.isEmpty()) {
          synchronized (this) {
            for (Map.Entry<String, byte[]> e : found.entrySet()) {
              if (seenInMemory.add(e.getKey())) {
                pendingInMemory.put(e.getKey(), e.getValue());
              }
            }
          }
        } else if (WARNED.add(type.getClassLoader())) {
          LOG.warn("joblib4j: {} was defined in memory (a REPL or a notebook) by {}, which does not serve its class"
              + " file, and joblib4j cannot give it to the Spark Connect server. Start the REPL with an output folder (Scala: -Yrepl-outdir <dir>), which"
              + " joblib4j then registers with the client's class finder, or register one yourself"
              + " (session.registerClassFinder)", type.getName(), type.getClassLoader());
        }
      }
      default -> {
        // the JDK's
      }
    }
  }

  /**
   * Gives the session what was noted since the last time; returns when it is there, so the
   * operation sent next finds it. Synchronized: a batch submitted from another thread waits for the
   * upload of what this one noted.
   */
  synchronized void ship() {
    List<CodeLocation> now = new ArrayList<>(pending);
    pending.clear();
    Map<String, byte[]> classes = new LinkedHashMap<>(pendingInMemory);
    pendingInMemory.clear();
    try {
      ConnectSessions.addClassFiles(session, classes); // as the session's class files (Spark 3.5: in a jar)
    } catch (RuntimeException e) {
      seenInMemory.removeAll(classes.keySet()); // tried again by the next batch that needs them
      throw e;
    }
    for (CodeLocation l : now) {
      try {
        switch (l.kind()) {
          case JAR -> ConnectArtifacts.addOnce(session, l.path());
          case FOLDER -> ConnectArtifacts.addOnce(session, ClassFolderJars.jarOf(l.path()));
          case REPL_FOLDER -> ConnectArtifacts.registerReplFolder(session, l.path());
          default -> throw new IllegalStateException("nothing to ship for " + l);
        }
      } catch (RuntimeException e) {
        seen.remove(l); // tried again by the next batch that needs it
        throw e;
      }
    }
  }

  private static Set<Path> platform() {
    Set<Path> out = ConcurrentHashMap.newKeySet();
    for (Class<?> c : List.of(SparkSession.class, ConnectSessions.sessionClass(), scala.Option.class,
        org.apache.spark.api.java.function.MapPartitionsFunction.class)) {
      CodeLocation l = CodeLocation.of(c);
      if (l.path() != null) {
        out.add(l.path());
      }
    }
    return out;
  }
}
