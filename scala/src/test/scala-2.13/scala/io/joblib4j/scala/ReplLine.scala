package io.joblib4j.scala

import java.io.PrintWriter
import _root_.scala.tools.nsc.Settings
import _root_.scala.tools.nsc.interpreter.IMain
import _root_.scala.tools.nsc.interpreter.shell.ReplReporterImpl

/**
 * What differs between the Scala REPLs the notebook suite drives, for Scala 2.13 (this folder is
 * compiled only for 2.13 builds; `scala-2.12/` holds the same object for 2.12): 2.13's IMain
 * reports through a `ReplReporter`, from the `interpreter.shell` package that 2.12 lacks.
 */
object ReplLine {

  /** The executors' SPARK_SCALA_VERSION: Spark's launcher picks its `scala-<version>` folders by it. */
  val scalaBinaryVersion = "2.13"

  /** An interpreter writing its compiler messages and echoed results to `out`. */
  def interpreter(settings: Settings, out: PrintWriter): IMain =
    new IMain(settings, new ReplReporterImpl(settings, out))
}
