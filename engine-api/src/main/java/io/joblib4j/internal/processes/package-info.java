/**
 * The {@code processes} backend: batches run in reusable child JVMs (joblib's loky).
 *
 * <p>Parent side: {@link io.joblib4j.internal.processes.ProcessesBackend} starts calls on a {@code
 * WorkerPool} (shared through {@code WorkerPools} by backends with equal settings), each worker
 * owned by one {@code WorkerHandle} thread from launch to death. Worker side: {@link
 * io.joblib4j.internal.processes.WorkerMain} and {@code WorkerSession}. Between them: the framed
 * protocol of {@code Frames} over a loopback TCP connection, Java serialization of the core's batches,
 * and large primitive arrays passed as files in {@code /dev/shm} ({@code CallFolder}). How a worker
 * died is worked out by {@code CrashDiagnosis}.
 */
package io.joblib4j.internal.processes;
