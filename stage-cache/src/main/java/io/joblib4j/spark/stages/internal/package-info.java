/**
 * The stage cache's implementation (not API): the key of a stage call ({@code StageKey}, {@code
 * PlanKeys}, {@code StageKeys}), the call protocol ({@code StageRunner}), its {@code explain} ({@code StageExplainer}), and the on-disk layout with its records
 * ({@code StageLayout}, {@code EntryRecord}, {@code EntryCatalog}). The layout classes use no Spark
 * type, so the command line can list, size, prune and clear stage entries with only a Hadoop client;
 * {@code StageCatalogLinkageTest} keeps it so.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.spark.stages.internal;

import org.apiguardian.api.API;
