package io.joblib4j.internal.persist;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import java.io.ByteArrayInputStream;

/**
 * Jazzer fuzz target: load from a stream, whatever the bytes. In {@code mvn verify} it replays its
 * inputs ({@code ContainerLoadFuzzTestInputs/loadFailsOnlyWithTypedErrors/}: valid dumps under every
 * codec, and what fuzzing found) in the normal test run, then fuzzes for a million inputs in a JVM
 * of its own (the {@code fuzz} execution of engine-api's pom).
 *
 * <p>The property: load returns a value or throws a {@link JoblibException}. Anything else (an
 * OutOfMemoryError, a StackOverflowError, a NegativeArraySizeException, an unchecked exception
 * from a codec) is a finding: nothing in the load path turns such errors into CorruptFileException.
 */
class ContainerLoadFuzzTest {
  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void loadFailsOnlyWithTypedErrors(byte[] data) {
    try {
      Joblib.load(new ByteArrayInputStream(data), FuzzLimits.LIMITS);
    } catch (JoblibException expected) {
      // bad input, reported as such
    }
  }
}
