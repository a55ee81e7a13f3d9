/**
 * Introspection of the serializable function types: what a lambda or method reference points at,
 * what an adapter ({@link io.joblib4j.fn.FunctionAdapter}) or a memoized function ({@link
 * WrapsFunction}) stands for, what a Scala method value forwards to, and the names Scala REPLs give
 * notebook cells' classes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.fn;

import org.apiguardian.api.API;
