/** The {@code threads} backend: batches on daemon worker threads of the caller's JVM. */
package io.joblib4j.internal.threads;
