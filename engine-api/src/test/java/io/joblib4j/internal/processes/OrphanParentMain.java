package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A parent JVM for {@link ParentDeathIT}: starts two busy workers that share a large array (so a
 * temporary folder of the pool's kept arrays exists), prints their pids and the folder, and waits to be killed.
 */
public final class OrphanParentMain {
  private OrphanParentMain() {}

  public static void main(String[] args) throws Exception {
    double[] big = new double[100_000];
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).maxNbytes(1024).build();
         ResultIterator<Integer> it = p.iterate(IntStream.range(0, 2).mapToObj(i -> delayed(a -> {
           System.out.println("WORKER " + ProcessHandle.current().pid());
           System.out.flush();
           Thread.sleep(600_000);
           return a.length;
         }, big)))) {
      Path base = TempFolders.baseFor(null);
      try (Stream<Path> s = Files.list(base)) {
        // a primitive array goes to the pool's kept files (PoolArrays), an NDArray to the call's folder
        s.filter(f -> f.getFileName().toString().startsWith(TempFolders.ownPrefix() + "call-")
                || f.getFileName().toString().startsWith(TempFolders.ownPrefix() + "pool-"))
            .forEach(f -> System.out.println("FOLDER " + f));
      }
      System.out.flush();
      it.hasNext();
    }
  }
}
