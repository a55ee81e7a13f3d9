/**
 * {@link io.joblib4j.array.NDArray}: a typed, C-ordered, n-dimensional array held on the heap or
 * memory-mapped from a file (numpy's {@code ndarray} / {@code memmap}), and its element types
 * {@link io.joblib4j.array.DType}.
 */
package io.joblib4j.array;
