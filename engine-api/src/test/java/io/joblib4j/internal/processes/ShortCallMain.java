package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import java.util.stream.Stream;

/** A short program for {@link ParentDeathIT}: one call on one worker, then exit at once. */
public final class ShortCallMain {
  private ShortCallMain() {}

  public static void main(String[] args) {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).build()) {
      System.out.println("RESULT " + p.run(Stream.of(delayed(x -> x + 1, 41))));
    }
  }
}
