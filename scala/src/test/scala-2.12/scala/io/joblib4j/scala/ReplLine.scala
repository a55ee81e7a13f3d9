package io.joblib4j.scala

import java.io.PrintWriter
import _root_.scala.tools.nsc.Settings
import _root_.scala.tools.nsc.interpreter.IMain

/**
 * What differs between the Scala REPLs the notebook suite drives, for Scala 2.12 (this folder is
 * compiled only for 2.12 builds; `scala-2.13/` holds the same object for 2.13): 2.12's IMain
 * takes the PrintWriter itself (2.12 has no `interpreter.shell` package).
 */
object ReplLine {

  /** The executors' SPARK_SCALA_VERSION: Spark's launcher picks its `scala-<version>` folders by it. */
  val scalaBinaryVersion = "2.12"

  /** An interpreter writing its compiler messages and echoed results to `out`. */
  def interpreter(settings: Settings, out: PrintWriter): IMain = new IMain(settings, out)
}
