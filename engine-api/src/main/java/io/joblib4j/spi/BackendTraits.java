package io.joblib4j.spi;

import org.apiguardian.api.API;

/**
 * What the core may assume about a backend.
 *
 * @param sharedMemory tasks run in the caller's JVM and see its objects: mutating an argument is
 *     visible to the caller ({@code require(SHAREDMEM)} needs this)
 * @param usesThreads workers are threads of the caller's JVM (for the {@code prefer} hint)
 * @param crossesJvm tasks and results are serialized to other JVMs; arguments and results must be
 *     serializable
 * @param reportsTaskProgress the backend reports each finished task of a batch through {@link
 *     BatchListener#taskDone}; if not, a timeout applies to a whole batch (timeout × batch size)
 * @param defaultNJobs the number of jobs used when neither the builder nor the active {@code
 *     ParallelConfig} sets one ({@code 1} for local backends as in joblib; {@code -1} for a cluster)
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public record BackendTraits(
    boolean sharedMemory,
    boolean usesThreads,
    boolean crossesJvm,
    boolean reportsTaskProgress,
    int defaultNJobs) {

  /**
   * Threads of this JVM.
   *
   * @return the traits
   */
  public static BackendTraits threads() {
    return new BackendTraits(true, true, false, true, 1);
  }

  /**
   * Workers in other JVMs that report each task.
   *
   * @param defaultNJobs the number of jobs when the user sets none
   * @return the traits
   */
  public static BackendTraits otherJvms(int defaultNJobs) {
    return new BackendTraits(false, false, true, true, defaultNJobs);
  }
}
