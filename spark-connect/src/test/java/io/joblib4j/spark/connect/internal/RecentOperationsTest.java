package io.joblib4j.spark.connect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which functions' batches may share a Connect operation, by how long their last one took. */
class RecentOperationsTest {
  @Test
  void aFunctionSharesOnlyAfterAnOperationShorterThanTheLine() {
    RecentOperations recent = new RecentOperations(RecentOperations.SHARE_BELOW_NANOS);
    assertThat(recent.mayShare("f")).as("seen for the first time").isFalse();
    recent.took("f", 200_000_000L);
    assertThat(recent.mayShare("f")).isTrue();
    recent.took("f", 1_500_000_000L);
    assertThat(recent.mayShare("f")).as("its last operation was long").isFalse();
    assertThat(recent.mayShare("g")).isFalse();
  }

  @Test
  void zeroNeverSharesAndAHigherLineSharesLongerOperations() {
    RecentOperations never = new RecentOperations(0);
    never.took("f", 1);
    assertThat(never.mayShare("f")).isFalse();
    RecentOperations patient = new RecentOperations(600_000_000_000L);
    patient.took("f", 5_000_000_000L);
    assertThat(patient.mayShare("f")).isTrue();
  }
}
