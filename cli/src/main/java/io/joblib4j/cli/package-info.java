/**
 * The {@code joblib4j} command line: {@code ls}, {@code du}, {@code show}, {@code explain}, {@code
 * rm}, {@code prune}, {@code verify} over a {@code Memory} cache and {@code stages ...} over a
 * pipeline-stage cache, at any location (a local path, {@code file:}, {@code hdfs:}, any Hadoop
 * FileSystem URI). {@link io.joblib4j.cli.Main} is the entry point, for {@code java -jar} and for
 * {@code spark-submit --class}; the commands themselves are described by {@code joblib4j help}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
package io.joblib4j.cli;

import org.apiguardian.api.API;
