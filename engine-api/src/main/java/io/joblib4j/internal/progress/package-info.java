/** Progress output: joblib-style verbose lines and the optional console progress bar. */
package io.joblib4j.internal.progress;
