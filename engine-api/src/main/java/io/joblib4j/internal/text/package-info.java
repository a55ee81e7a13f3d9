/** Text encoding shared by persistence and hashing. Not API. */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.text;

import org.apiguardian.api.API;
