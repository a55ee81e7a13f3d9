/** Memory's implementation: the local store, entry layout, function identity and code versions. */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.memory;

import org.apiguardian.api.API;
