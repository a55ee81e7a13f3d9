/**
 * Code versions of cached functions: the class files of the user's code read with ASM ({@link
 * io.joblib4j.internal.code.ClassFiles}), the rule for what counts as the user's code ({@link
 * io.joblib4j.internal.code.CodeScope}), and the walk from a function's method through the methods
 * it reaches whose hash is its version ({@link io.joblib4j.internal.code.CodeVersion}); and, read the
 * same way, the proof of which primitive arrays a task's code can store into ({@link
 * io.joblib4j.internal.code.ArrayWrites}), by which a worker keeps a large array's copy across calls
 * without copying it again. Not API.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.code;

import org.apiguardian.api.API;
