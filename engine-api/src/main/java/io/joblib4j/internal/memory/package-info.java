/** Memory's implementation: the local store, entry layout, function identity and code versions. */
package io.joblib4j.internal.memory;
