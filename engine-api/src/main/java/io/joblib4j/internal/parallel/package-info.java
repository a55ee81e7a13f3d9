/**
 * The scheduling core behind {@code Parallel}: settings resolution ({@code CallPlan}), dispatch
 * and batching ({@code ParallelCall}, {@code AutoBatcher}), ordering, timeouts, cancellation, the
 * lazy sequential run, and the backend registry.
 */
package io.joblib4j.internal.parallel;
