/**
 * The serializable function types tasks and memoized functions are built from: {@code Fn0} ...
 * {@code Fn6} for functions of zero to six arguments, and {@code Action} for initializers.
 *
 * <p>They extend {@link java.io.Serializable} so that tasks can leave the JVM, and their single
 * abstract method may throw checked exceptions; Scala lambdas convert to them too.
 * {@code FunctionAdapter} marks an object that adapts another language's function to them
 * (joblib4j-scala's do), so that the adapted function names and identifies the task.
 */
package io.joblib4j.fn;
