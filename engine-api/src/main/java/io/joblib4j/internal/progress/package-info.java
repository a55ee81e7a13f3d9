/** Progress output: joblib-style verbose lines and the optional console progress bar. */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.progress;

import org.apiguardian.api.API;
