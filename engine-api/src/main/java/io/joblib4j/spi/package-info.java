/**
 * What other modules and users implement to extend joblib4j.
 *
 * <ul>
 *   <li>{@link io.joblib4j.spi.Backend} and {@link io.joblib4j.spi.BackendProvider}: where the
 *       batches of a {@code Parallel} call run. The core dispatches, batches, orders results,
 *       enforces timeouts, cancels and reports progress; a backend only executes {@link
 *       io.joblib4j.spi.Batch}es and reports back through a {@link io.joblib4j.spi.BatchListener}.
 *   <li>{@link io.joblib4j.spi.Backends}: the registry, filled from {@code META-INF/services}
 *       through the thread context class loader and by hand.
 * </ul>
 */
package io.joblib4j.spi;
