/**
 * The scheduling core behind {@code Parallel}: settings resolution ({@code CallPlan}), dispatch
 * and batching ({@code ParallelCall}, {@code AutoBatcher}), ordering, timeouts, cancellation, the
 * lazy sequential run, and the backend registry.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.parallel;

import org.apiguardian.api.API;
