/**
 * Storage behind {@link io.joblib4j.array.NDArray}: byte segments on the heap or memory-mapped from
 * a file. Not API.
 */
package io.joblib4j.internal.array;
