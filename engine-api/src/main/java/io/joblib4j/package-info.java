/**
 * joblib for the JVM: the public API.
 *
 * <p>Persistence and hashing live in {@link io.joblib4j.Joblib} ({@code dump}, {@code load}, {@code
 * hash}) with their options {@link io.joblib4j.Compress}, {@link io.joblib4j.MmapMode}, {@link
 * io.joblib4j.LoadOptions} and {@link io.joblib4j.HashAlgorithm}. Every error joblib4j raises is a
 * {@link io.joblib4j.JoblibException} (or a JDK exception such as {@link
 * java.io.UncheckedIOException} for I/O and {@link IllegalArgumentException} for bad arguments).
 */
package io.joblib4j;
