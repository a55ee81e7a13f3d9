package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class CompilerActivityTest {
  private static final CompilerActivity.Counted APP = name -> name.startsWith("app.");

  @Test
  void aQueueWithoutACountedClassesMethodIsQuiet() {
    assertThat(CompilerActivity.isQuiet("Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n",
        APP)).isTrue();
    assertThat(CompilerActivity.isQuiet("Current compiles: \nC2 CompilerThread0  1834       4       "
        + "java.lang.String::hashCode (49 bytes)\n\nC1 compile queue:\nEmpty\n", APP)).as("the JDK's own").isTrue();
  }

  @Test
  void aRunningOrQueuedCompilationOfACountedClassIsNotQuiet() {
    assertThat(CompilerActivity.isQuiet("Current compiles: \nC2 CompilerThread0  1834       4       "
        + "app.Hot::run (49 bytes)\n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n", APP)).isFalse();
    assertThat(CompilerActivity.isQuiet("Current compiles: \n\nC1 compile queue:\n1835  %    3       "
        + "app.Hot$Inner::loop @ 12 (19 bytes)\n\nC2 compile queue:\nEmpty\n", APP)).isFalse();
  }

  @Test
  void theLastCompileIdIsTheHighestOfACountedClassesCode() {
    assertThat(CompilerActivity.lastCompileId("470 3 0 app.B.c(J)J [0x1, 0x2 - 0x3]\n1203 4 0 java.lang.B.d()V [0x4]\n"
        + "517 1 0 app.B$C.e()V [0x5]\n", APP)).isEqualTo(517);
    assertThat(CompilerActivity.lastCompileId("", APP)).isZero();
  }

  @Test
  void bootClassesAreNotCountedAndThisJvmsOwnClassesAre() throws Exception {
    CompilerActivity.Counted archivable = CompilerActivity.Counted.archivable();
    assertThat(archivable.test("java.lang.String")).isFalse();
    assertThat(archivable.test(CompilerActivityTest.class.getName())).isTrue();
    assertThat(archivable.test("app.Foo")).as("unknown: counted").isTrue();
    assertThat(archivable.test("java.lang.invoke.LambdaForm$MH/0x0000000800c0b000")).isFalse();
    assertThat(archivable.test("java.util.regex.CharPredicates$$Lambda$50/0x00007f7cfc034600")).isFalse();
    assertThat(archivable.test(CompilerActivityTest.class.getName() + "$$Lambda$7/0x00007f7cfc034600")).isTrue();
    CompilerActivity.of(ManagementFactory.getPlatformMBeanServer(),
        new ObjectName("com.sun.management:type=DiagnosticCommand"), archivable);
  }
}
