/** Introspection of the serializable function types: what a lambda or method reference points at. */
package io.joblib4j.internal.fn;
