package io.joblib4j.spark.connect

import io.joblib4j.Parallel
import io.joblib4j.scala._
import org.junit.jupiter.api.Assertions.{assertEquals, assertFalse}
import org.junit.jupiter.api.Test

/**
 * The Scala API (`import io.joblib4j.scala._`) from this Connect client: Scala lambdas, method
 * values, `delayed` and Scala collections, run on the Connect server's executor, on a session no
 * test gave jars to (the Scala module's jar and these classes are shipped as the Java ones are).
 */
class ScalaApiOnConnectIT {
  @Test
  def scalaFunctionsCollectionsAndDelayedRunOnTheConnectServer(): Unit = {
    val session = ConnectServer.newSession()
    val parallel = Parallel.builder().backend(new SparkConnectBackend(session)).nJobs(2).build()
    try {
      assertEquals(Vector(1, 4, 9, 16, 25), parallel.map((x: Int) => x * x, 1 to 5))
      assertEquals(Vector(11, 12, 13), parallel.run((1 to 3).map(delayed(ScalaApiOnConnectIT.plusTen _))))
      val pids = parallel.map((_: Int) => ProcessHandle.current().pid(), Seq(0, 1))
      assertFalse(pids.contains(ProcessHandle.current().pid()), s"tasks ran in the server's JVM, not here: $pids")
    } finally {
      parallel.close()
      session.close()
    }
  }
}

object ScalaApiOnConnectIT {
  def plusTen(x: Int): Int = x + 10
}
