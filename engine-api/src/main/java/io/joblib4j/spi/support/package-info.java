/**
 * Helpers that backend and store implementers call, kept apart from the contracts of {@link
 * io.joblib4j.spi} so that the contracts read alone: {@link io.joblib4j.spi.support.Warnings}
 * (user-facing warnings, in one place for every module), {@link
 * io.joblib4j.spi.support.ByteSizes} (size options written as joblib writes them), {@link
 * io.joblib4j.spi.support.StorePaths} (the path rules every store enforces) and {@link
 * io.joblib4j.spi.support.CountingCrcOutputStream} (the size and CRC32C of what a store writes) and
 * {@link io.joblib4j.spi.support.OwnerOnlyFolders} (fixed-name folders in the shared temporary
 * folder, taken only if they are the user's alone).
 * Like the SPI, nothing here uses joblib4j's internals.
 */
package io.joblib4j.spi.support;
