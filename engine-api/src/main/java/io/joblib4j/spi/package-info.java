/**
 * What other modules and users implement to extend joblib4j: the contracts, readable alone (no
 * type here, nor in {@code spi.support} or {@code spi.worker}, refers to joblib4j's internals).
 * Implementations are listed in {@code META-INF/services} and found with {@link
 * java.util.ServiceLoader} through the thread context class loader and joblib4j's own class loader
 * — joblib4j's own backends, local store and codecs are registered that very way — or registered
 * by hand.
 *
 * <ul>
 *   <li>{@link io.joblib4j.spi.Backend} and {@link io.joblib4j.spi.BackendProvider}: where the
 *       batches of a {@code Parallel} call run. The core dispatches, batches, orders results,
 *       enforces timeouts, cancels and reports progress; a backend only executes {@link
 *       io.joblib4j.spi.Batch}es and reports back through a {@link io.joblib4j.spi.BatchListener}.
 *       Registry: {@link io.joblib4j.spi.Backends}.
 *   <li>{@link io.joblib4j.spi.Store} and {@link io.joblib4j.spi.StoreProvider}: where {@code
 *       Memory} keeps its entries, by URI scheme. Registry: {@link io.joblib4j.spi.Stores}.
 *   <li>{@link io.joblib4j.spi.Compressor}: the codecs {@link io.joblib4j.Joblib#dump} can compress
 *       with. Registry: {@link io.joblib4j.spi.Compressors}.
 *   <li>Helpers implementers call are in {@link io.joblib4j.spi.support}: warnings, byte sizes,
 *       store paths, checksummed streams. The protocol of backends whose workers are other JVMs
 *       is {@link io.joblib4j.spi.worker}.
 * </ul>
 *
 * <p>Other modules use engine-api through this package and the public API only, never {@code
 * io.joblib4j.internal}: each module's {@code InternalBoundaryTest} fails the build otherwise.
 */
package io.joblib4j.spi;
