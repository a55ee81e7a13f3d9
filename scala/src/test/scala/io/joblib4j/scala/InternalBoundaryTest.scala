package io.joblib4j.scala

import io.joblib4j.testing.InternalBoundary
import org.scalatest.funsuite.AnyFunSuite

/** The Scala API uses engine-api through its public API and SPI only (see InternalBoundary). */
class InternalBoundaryTest extends AnyFunSuite {
  test("no class of this module uses engine-api internals") {
    InternalBoundary.assertNoInternalReferences(classOf[ScalaFn1[_, _]], classOf[InternalBoundaryTest])
  }
}
