/** A three-stage Spark pipeline cached with {@code StageCache}: run it twice and the second run reads every stage. */
package io.joblib4j.examples.stages;
