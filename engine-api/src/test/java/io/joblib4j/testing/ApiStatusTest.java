package io.joblib4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.worker.WorkerLoop;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/** engine-api's public types say how stable they are, and the check sees a type that does not. */
class ApiStatusTest {

  @Test
  void everyPublicTypeOfEngineApiHasAStatusAndEveryInternalPackageIsInternal() {
    ApiStatus.assertEveryPublicTypeIsMarked(Parallel.class);
  }

  @Test
  void theStatusesSayWhatEachLayerPromises() {
    assertThat(Parallel.class.getAnnotation(API.class).status()).isEqualTo(API.Status.STABLE);
    assertThat(Backend.class.getAnnotation(API.class).status()).isEqualTo(API.Status.MAINTAINED);
    assertThat(WorkerLoop.class.getAnnotation(API.class).status()).isEqualTo(API.Status.EXPERIMENTAL);
  }

  @Test
  void theCheckListsAPublicTypeWithoutAStatus() {
    // the test helpers are public and carry no status: the check run over the test classes lists them
    assertThat(ApiStatus.unmarked(ApiStatusTest.class)).contains(Rendezvous.class.getName(), ApiStatus.class.getName())
        .doesNotContain(ApiStatusTest.class.getName());
  }
}
