package io.joblib4j.spark;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The base of the local[2] test classes: each gets a spark backend on the session the JVM shares
 * ({@link LocalSpark}) and closes it after its tests; Spark itself keeps running.
 */
abstract class OnLocalSpark {
  static SparkBackend spark;

  @BeforeAll
  static void openBackend() {
    spark = LocalSpark.backend();
  }

  @AfterAll
  static void closeBackend() {
    spark.close();
  }
}
