/**
 * What other modules and users implement. Here: {@link io.joblib4j.spi.Compressor}, the codecs
 * {@link io.joblib4j.Joblib#dump} can compress with, and their registry {@link
 * io.joblib4j.spi.Compressors}. Implementations are found with {@link java.util.ServiceLoader}
 * through the thread context class loader, and can also be registered by hand.
 */
package io.joblib4j.spi;
