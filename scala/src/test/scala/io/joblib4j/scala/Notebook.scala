package io.joblib4j.scala

import java.io.{ByteArrayOutputStream, File, PrintStream, PrintWriter, StringWriter}
import _root_.scala.tools.nsc.Settings
import _root_.scala.tools.nsc.interpreter.{Results => ReplResults}

/**
 * A notebook's interpreter: the Scala REPL of the build's Scala version (2.13 or 2.12, made by
 * [[ReplLine]]), class-based and writing its classes to `outDir`, exactly as spark-shell's
 * `org.apache.spark.repl.Main` starts it (`-Yrepl-class-based -Yrepl-outdir`) — the interpreter behind Zeppelin's Spark interpreter and Databricks' Scala
 * notebooks is the same. Each cell is compiled as one REPL line (`$lineN`), as a notebook
 * paragraph is. A failed cell throws [[Notebook.CellFailed]] with what the user would have seen.
 */
final class Notebook(outDir: File) extends AutoCloseable {
  private val written = new StringWriter
  private val settings = {
    val s = new Settings(message => throw new IllegalArgumentException(message))
    s.processArguments(List("-Yrepl-class-based", "-Yrepl-outdir", outDir.getAbsolutePath, "-usejavacp"), true)
    s
  }
  private val intp = ReplLine.interpreter(settings, new PrintWriter(written, true))

  /** Runs one cell and returns what it printed (its values, `println`s, joblib4j's lines). */
  def run(cell: String): String = {
    val printed = new ByteArrayOutputStream
    val stream = new PrintStream(printed, true, "UTF-8")
    val systemOut = System.out
    val result =
      try {
        System.setOut(stream)
        Console.withOut(stream)(intp.interpret(cell))
      } finally System.setOut(systemOut)
    stream.flush()
    val output = written.toString + printed.toString("UTF-8")
    written.getBuffer.setLength(0)
    if (result != ReplResults.Success) throw new Notebook.CellFailed(cell, output)
    output
  }

  /** The value of a cell's `val name`, as the REPL holds it. */
  def valueOf[T](name: String): T =
    intp.valueOfTerm(name).getOrElse(throw new NoSuchElementException(s"no value $name in the notebook"))
      .asInstanceOf[T]

  override def close(): Unit = intp.close()
}

object Notebook {
  final class CellFailed(cell: String, output: String)
      extends RuntimeException(s"cell failed:\n$cell\n--- output:\n$output") {
    def printed: String = output
  }

  /** What spark-shell's SparkILoop runs before the user's first cell (`spark` and `sc` are @transient there). */
  val sparkShellPrelude: Seq[String] = Seq(
    """@transient val spark = io.joblib4j.scala.NotebookSpark.session
      |@transient val sc = spark.sparkContext""".stripMargin,
    "import org.apache.spark.SparkContext._",
    "import spark.implicits._",
    "import spark.sql",
    "import org.apache.spark.sql.functions._")

  /**
   * The cells of a Zeppelin note (`.zpln`: JSON with `paragraphs[].text`, `%spark` ones run as
   * Scala) or of a Databricks Scala notebook source (cells separated by `// COMMAND ----------`,
   * `// MAGIC` lines being markdown).
   */
  def cellsOf(file: File): Seq[String] = {
    val text = new String(java.nio.file.Files.readAllBytes(file.toPath), "UTF-8")
    if (file.getName.endsWith(".zpln")) {
      val mapper = new com.fasterxml.jackson.databind.ObjectMapper
      val paragraphs = mapper.readTree(text).get("paragraphs")
      (0 until paragraphs.size).map(i => paragraphs.get(i).get("text").asText)
        .filter(_.startsWith("%spark")).map(_.stripPrefix("%spark").trim)
    } else {
      text.split("// COMMAND ----------").toSeq
        .map(_.linesIterator.filterNot(l => l.startsWith("// Databricks notebook source") || l.startsWith("// MAGIC"))
          .mkString("\n").trim)
        .filter(_.nonEmpty)
    }
  }
}
