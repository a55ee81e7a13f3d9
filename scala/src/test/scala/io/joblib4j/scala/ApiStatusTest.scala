package io.joblib4j.scala

import org.apiguardian.api.API
import org.scalatest.funsuite.AnyFunSuite
import org.scalatest.matchers.should.Matchers

/**
 * The Scala API says how stable it is: the package (whose package object `import io.joblib4j.scala._`
 * brings in; a package object cannot carry the annotation itself) and `Results`. The adapters are
 * `private[scala]`: public in bytecode only.
 */
class ApiStatusTest extends AnyFunSuite with Matchers {
  test("the package and Results are marked STABLE") {
    for (c <- Seq(Class.forName("io.joblib4j.scala.package-info"), classOf[Results[_]])) {
      withClue(c.getName) {
        Option(c.getAnnotation(classOf[API])).map(_.status()) shouldBe Some(API.Status.STABLE)
      }
    }
  }
}
