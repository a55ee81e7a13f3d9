/**
 * The serializable function types tasks and memoized functions are built from: {@code Fn0} ...
 * {@code Fn6} for functions of zero to six arguments, and {@code Action} for initializers.
 *
 * <p>They extend {@link java.io.Serializable} so that tasks can leave the JVM, and their single
 * abstract method may throw checked exceptions; Scala lambdas convert to them too.
 */
package io.joblib4j.fn;
