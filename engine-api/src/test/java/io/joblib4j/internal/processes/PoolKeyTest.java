package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PoolKey and LaunchSpec compare by hand (for start-up speed): equal exactly when every part is. */
class PoolKeyTest {
  private static final LaunchSpec SPEC = new LaunchSpec("java", List.of("a.jar", "b.jar"), List.of("-Da=1"),
      Map.of("X", "1"));
  private static final PoolKey KEY = new PoolKey(SPEC, 2, Duration.ofSeconds(300), Duration.ofSeconds(60));

  @Test
  void keysBuiltFromEqualPartsAreEqualAndHashAlike() {
    LaunchSpec spec = new LaunchSpec("java", List.of("a.jar", "b.jar"), List.of("-Da=1"), Map.of("X", "1"));
    PoolKey key = new PoolKey(spec, 2, Duration.ofSeconds(300), Duration.ofSeconds(60));
    assertThat(spec).isEqualTo(SPEC).hasSameHashCodeAs(SPEC);
    assertThat(key).isEqualTo(KEY).hasSameHashCodeAs(KEY);
  }

  @Test
  void launchSpecsDifferingInAnyPartDiffer() {
    assertThat(List.of(
        new LaunchSpec("java2", SPEC.classpath(), SPEC.jvmOptions(), SPEC.env()),
        new LaunchSpec("java", List.of("b.jar", "a.jar"), SPEC.jvmOptions(), SPEC.env()),
        new LaunchSpec("java", SPEC.classpath(), List.of("-Da=2"), SPEC.env()),
        new LaunchSpec("java", SPEC.classpath(), SPEC.jvmOptions(), Map.of("X", "2"))))
        .allSatisfy(other -> assertThat(other).isNotEqualTo(SPEC));
    assertThat(SPEC).isNotEqualTo("java").isNotEqualTo(null);
  }

  @Test
  void poolKeysDifferingInAnyPartDiffer() {
    LaunchSpec otherSpec = new LaunchSpec("java", SPEC.classpath(), List.of(), SPEC.env());
    assertThat(List.of(
        new PoolKey(otherSpec, 2, KEY.idleTimeout(), KEY.startTimeout()),
        new PoolKey(SPEC, 3, KEY.idleTimeout(), KEY.startTimeout()),
        new PoolKey(SPEC, 2, Duration.ofSeconds(1), KEY.startTimeout()),
        new PoolKey(SPEC, 2, KEY.idleTimeout(), Duration.ofSeconds(1))))
        .allSatisfy(other -> assertThat(other).isNotEqualTo(KEY));
  }

  @Test
  void onlyTheThreadBudgetMayDifferWithinAFamily() {
    assertThat(new PoolKey(SPEC, 3, KEY.idleTimeout(), KEY.startTimeout()).sameFamily(KEY)).isTrue();
    assertThat(new PoolKey(SPEC, 2, Duration.ofSeconds(1), KEY.startTimeout()).sameFamily(KEY)).isFalse();
  }
}
