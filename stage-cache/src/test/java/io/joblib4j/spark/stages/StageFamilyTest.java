package io.joblib4j.spark.stages;

import io.joblib4j.ArityFamiliesTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stage1 ... Stage4 are written by hand: every one has the same methods, argument lists aside ({@link ArityFamiliesTest}). */
class StageFamilyTest {
  @Test
  void everyStageTypeHasTheSameMethods() {
    ArityFamiliesTest.assertUniform(List.of(Stage1.class, Stage2.class, Stage3.class, Stage4.class), 1);
  }
}
