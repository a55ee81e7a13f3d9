/** How the command line opens locations, reads Hadoop settings, prints tables and JSON. Not API. */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.cli.internal;

import org.apiguardian.api.API;
