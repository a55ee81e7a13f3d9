/**
 * The SPI for backends whose workers are other JVMs — the {@code processes} backend's child JVMs,
 * the {@code spark} backend's executors — so that every such backend speaks one protocol and
 * fails the same way.
 *
 * <ul>
 *   <li>Worker side: {@link io.joblib4j.spi.worker.WorkerLoop} connects nothing itself; given a
 *       socket to the parent it says {@link io.joblib4j.spi.worker.Hello}, runs the initializer
 *       once per JVM, runs batches with coalesced progress reports, and sends back results — or,
 *       for what cannot travel, a {@link io.joblib4j.RemoteTaskException} stand-in or the field
 *       path of the result at fault.
 *   <li>Parent side: {@link io.joblib4j.spi.worker.WorkerLink} is one worker's connection
 *       (handshake, frames sent, frames read into {@link io.joblib4j.spi.worker.WorkerLink.Events});
 *       {@link io.joblib4j.spi.worker.BatchCodec} serializes batches before anything is sent
 *       ({@link io.joblib4j.TaskSerializationException} with the field path) and turns what
 *       workers report ({@link io.joblib4j.spi.worker.FailureReport}, {@link
 *       io.joblib4j.spi.worker.FailureKind}) into the caller's outcomes and exceptions.
 *   <li>Strategies: an {@link io.joblib4j.spi.worker.ArgumentSharer} ships large arguments once
 *       per call (files for processes, broadcasts for Spark); a {@link
 *       io.joblib4j.spi.worker.WireFormat} says whether both ends load the same class files; when they
 *       do, a {@link io.joblib4j.spi.worker.BatchFields} lets batches of plain tasks (lambdas of
 *       boxed primitives and strings) and plain results cross without Java serialization.
 * </ul>
 *
 * <p>A backend keeps what is its own: how workers start and connect (child processes and a
 * loopback port; Spark tasks and a driver port), how it schedules batches on them, and what a
 * worker's death means (a crash report; a batch run again elsewhere).
 *
 * <p>This package holds the contracts only. Their implementation is engine-api's, found as the
 * {@link io.joblib4j.spi.worker.WorkerProtocol} listed in its {@code META-INF/services}; the
 * interfaces' static factories ({@code WorkerLoop.builder}, {@code WorkerLink.accept}, {@code
 * BatchCodec.builder}) hand it out, so a backend never names it.
 */
package io.joblib4j.spi.worker;
