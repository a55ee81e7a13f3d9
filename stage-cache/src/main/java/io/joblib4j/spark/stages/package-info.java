/**
 * Spark pipeline stages cached as Parquet through a {@link io.joblib4j.spi.Store}: {@link
 * io.joblib4j.spark.stages.StageCache} wraps a stage ({@link io.joblib4j.spark.stages.Stage1} ...
 * {@link io.joblib4j.spark.stages.Stage4}) so that a later run with the same code, plan and inputs
 * reads the stored result instead of computing it; {@link io.joblib4j.spark.stages.StageCatalog}
 * lists, prunes and clears the stored stages without Spark (for the command line).
 *
 * <p>This package is the stage cache's own: the Spark backend lives in {@code io.joblib4j.spark}, a
 * different module, so the two jars can both go on the module path.
 */
package io.joblib4j.spark.stages;
