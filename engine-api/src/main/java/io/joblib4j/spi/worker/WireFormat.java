package io.joblib4j.spi.worker;

import org.apiguardian.api.API;

/**
 * How objects are serialized between a parent and its workers. Both ends of a backend must use
 * the same format.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum WireFormat {
  /**
   * Java serialization as it is: each stream describes the fields of every class it holds, and the
   * reader checks them against its own class (its {@code serialVersionUID}). For workers that may
   * load other versions of the classes: Spark executors with their own jars.
   */
  PORTABLE,

  /**
   * Classes described by name alone: the reader takes the description from its own class. Reading
   * a small batch then costs a fraction of {@link #PORTABLE}'s, but both ends must load the very
   * same class files — workers started by the parent with its own JDK and class path.
   */
  SAME_CLASS_FILES
}
