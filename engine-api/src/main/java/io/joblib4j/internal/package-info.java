/**
 * Implementation details shared by the rest of joblib4j. Not API: anything here may change in
 * any release.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal;

import org.apiguardian.api.API;
