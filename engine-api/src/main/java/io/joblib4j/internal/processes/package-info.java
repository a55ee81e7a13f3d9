/**
 * The {@code processes} backend: batches run in reusable child JVMs (joblib's loky).
 *
 * <p>It speaks the protocol every backend with workers in other JVMs shares ({@link
 * io.joblib4j.spi.worker}) and adds what is its own. Parent side: {@link
 * io.joblib4j.internal.processes.ProcessesBackend} starts calls on a {@code WorkerPool} (shared
 * through {@code WorkerPools} by backends with equal settings), each worker owned by one {@code
 * WorkerHandle} thread from launch to death, connected by a {@code WorkerLink} over a Unix-domain socket
 * of its own (loopback TCP where there are none); large primitive arrays and NDArrays reach workers as files in {@code /dev/shm}
 * ({@code CallFolder}, the call's {@code ArgumentSharer}); how a worker died is worked out by
 * {@code CrashDiagnosis}. Worker side: {@link io.joblib4j.internal.processes.WorkerMain} runs a
 * {@code WorkerLoop} and exits with its parent — or, kept warm, parks for the next program to adopt
 * ({@code WarmWorkers} on both sides, {@code WorkerPark} in the worker).
 *
 * <p>It lives in engine-api, not in a module of its own, because {@code backend("processes")} must
 * work with the core artifact alone, as loky ships in joblib's core; it depends only on the public
 * API and the worker SPI, not on the core's scheduling.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.processes;

import org.apiguardian.api.API;
