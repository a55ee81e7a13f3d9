package io.joblib4j.scala

import java.io.File
import java.nio.file.{Files, Path}
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import org.apache.spark.scheduler.{SparkListener, SparkListenerJobStart}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite
import org.scalatest.matchers.should.Matchers
import _root_.scala.jdk.CollectionConverters._

/** Counts computations across notebooks and restarts of them (a static, so not part of any cell). */
object Computations {
  val count = new AtomicInteger()
}

/**
 * joblib4j used as a notebook uses it: cells typed into the class-based Scala REPL that
 * spark-shell, Zeppelin and Databricks run, on a SparkSession whose two executors are separate
 * JVMs that get the cells' classes from the REPL class server. No `@transient` anywhere.
 */
class NotebookIT extends AnyFunSuite with Matchers with BeforeAndAfterAll {
  private val work = new File(NotebookSpark.required("joblib4j.it.workDir")).getAbsoluteFile
  private val cache = new File(work, "cache")
  private var nb: Notebook = _
  private val jobDescriptions = new ConcurrentLinkedQueue[String]()

  override def beforeAll(): Unit = {
    deleteRecursively(work.toPath)
    val outDir = new File(work, "repl-classes")
    outDir.mkdirs()
    val spark = NotebookSpark.start(outDir)
    spark.sparkContext.addSparkListener(new SparkListener {
      override def onJobStart(job: SparkListenerJobStart): Unit =
        Option(job.properties).flatMap(p => Option(p.getProperty("spark.job.description"))).foreach(jobDescriptions.add)
    })
    nb = new Notebook(outDir)
    Notebook.sparkShellPrelude.foreach(nb.run)
    nb.run("import io.joblib4j.{Memory, Parallel}\nimport io.joblib4j.scala._")
    nb.run(s"""val memory = new Memory("${cache.getPath}")""")
  }

  override def afterAll(): Unit = {
    if (nb != null) nb.close()
    NotebookSpark.stop()
  }

  private def computed = Computations.count.get()

  test("cells define a case class and a def; the def cached in a cell loads when the cell runs again") {
    nb.run("case class Point(x: Int, y: Int)")
    nb.run("def slow(x: Int): Int = { io.joblib4j.scala.Computations.count.incrementAndGet(); x * 2 }")
    val cell = "val cached = memory.cache(slow _)\nval first = cached(21)"
    val before = computed
    nb.run(cell)
    nb.valueOf[Int]("first") shouldBe 42
    nb.run(cell) // a new REPL line: new classes, the same function
    nb.valueOf[Int]("first") shouldBe 42
    computed - before shouldBe 1
    val folders = cache.list().filter(n => new File(cache, n).isDirectory).toSeq
    folders.filter(_.startsWith("repl.slow-")) should have size 1
    folders.mkString should not include "line"
  }

  test("a task lambda calling another cell's def runs on the executors' JVMs, with no @transient") {
    nb.run("""val p = Parallel.builder().backend("spark").nJobs(2).verbose(0).build()""")
    nb.run("val ran = p.map((x: Int) => (ProcessHandle.current().pid(), slow(x)), 1 to 8)")
    val ran = nb.valueOf[Seq[(Long, Int)]]("ran")
    ran.map(_._2) shouldBe (1 to 8).map(_ * 2)
    ran.map(_._1).toSet should not contain ProcessHandle.current().pid()
    nb.run("val points = p.map((n: Int) => Point(n, n * n), 1 to 4)\nval ys = points.map(_.y)")
    nb.valueOf[Seq[Int]]("ys") shouldBe Seq(1, 4, 9, 16)
  }

  test("the Spark job is named after the notebook's def, not the REPL's class names") {
    jobDescriptions.clear()
    nb.run("val doubled = p.map(slow _, 1 to 4)")
    nb.valueOf[Seq[Int]]("doubled") shouldBe Seq(2, 4, 6, 8)
    val description = jobDescriptions.asScala.find(_.startsWith("joblib4j Parallel")).getOrElse(jobDescriptions.toString)
    description should startWith("joblib4j Parallel: slow (")
  }

  test("the same tasks run on threads") {
    nb.run("""val t = Parallel.builder().backend("threads").nJobs(2).build()""")
    nb.run("val viaThreads = t.run((1 to 5).map(delayed(slow _)))")
    nb.valueOf[Seq[Int]]("viaThreads") shouldBe Seq(2, 4, 6, 8, 10)
  }

  test("a memoized function is called inside tasks on the executors, which fill the driver's cache") {
    nb.run("val inTasks = p.map(cached, 1 to 6)\nval inLambdas = p.map((x: Int) => cached(x) + 1, 1 to 6)")
    nb.valueOf[Seq[Int]]("inTasks") shouldBe (1 to 6).map(_ * 2)
    nb.valueOf[Seq[Int]]("inLambdas") shouldBe (1 to 6).map(_ * 2 + 1)
    val before = computed
    nb.run("val allCached = (1 to 6).forall(cached.checkCallInCache(_))\nval again = (1 to 6).map(cached)")
    nb.valueOf[Boolean]("allCached") shouldBe true
    computed shouldBe before
  }

  test("a memoized lambda whose cell holds it (and that reads other cells) is computed and cached") {
    // its captured cell holds `combined` itself: the cell stays out of the call key
    nb.run("val combined = memory.cache((x: Int) => cached(x) + slow(x))\nval c = combined(5)")
    nb.valueOf[Int]("c") shouldBe 20
    val before = computed
    nb.run("val c2 = combined(5)")
    nb.valueOf[Int]("c2") shouldBe 20
    computed shouldBe before
  }

  // this lambda's bytecode names the cells it reads ($lineN): code versions leave cell numbers out
  test("a memoized lambda that reads other cells hits when its cell runs again") {
    val cell = "val combined = memory.cache((x: Int) => cached(x) + slow(x))\nval c = combined(5)"
    nb.run(cell)
    val before = computed
    nb.run(cell)
    nb.valueOf[Int]("c") shouldBe 20
    computed shouldBe before
  }

  test("a failing task throws its exception, and the note names the cell's lambda readably") {
    nb.run("""val err = try { p.map((x: Int) => if (x == 3) throw new IllegalStateException("no 3") else x, 1 to 5); "none" }
             |  catch { case e: IllegalStateException => e.getMessage + " | " + e.getSuppressed.map(_.getMessage).mkString(" ") }
             |""".stripMargin)
    val err = nb.valueOf[String]("err")
    err should startWith("no 3 | ")
    err should include("task 2 of lambda in err failed on") // input 3 is task 2: indexes count from 0
    for (noise <- Seq("$line", "$read", "$iw", "$anonfun")) err should not include noise
  }

  test("redefining a def invalidates its cached results") {
    nb.run("def slow(x: Int): Int = { io.joblib4j.scala.Computations.count.incrementAndGet(); x * 3 }")
    val before = computed
    nb.run("val cached = memory.cache(slow _)\nval redefined = cached(21)")
    nb.valueOf[Int]("redefined") shouldBe 63
    computed - before shouldBe 1
  }

  test("a restarted notebook hits what its unchanged code cached, and misses once the code changed") {
    val restarted = new Notebook(new File(work, "restarted-classes"))
    try {
      restarted.run("val shifted = 1") // one more cell than before: every line number moves
      restarted.run(s"""import io.joblib4j.{Memory, Parallel}\nimport io.joblib4j.scala._\nval memory = new Memory("${cache.getPath}")""")
      restarted.run("def slow(x: Int): Int = { io.joblib4j.scala.Computations.count.incrementAndGet(); x * 3 }")
      val before = computed
      restarted.run("val cached = memory.cache(slow _)\nval afterRestart = cached(21)")
      restarted.valueOf[Int]("afterRestart") shouldBe 63
      computed shouldBe before
      restarted.run("def slow(x: Int): Int = { io.joblib4j.scala.Computations.count.incrementAndGet(); x * 4 }")
      restarted.run("val cached = memory.cache(slow _)\nval changed = cached(21)")
      restarted.valueOf[Int]("changed") shouldBe 84
      computed - before shouldBe 1
    } finally restarted.close()
  }

  test("a SparkBackend kept in a val of a cell that tasks use still needs @transient, with a clear error") {
    nb.run("val backend = new io.joblib4j.spark.SparkBackend(spark)")
    nb.run("""val held = try { Parallel.builder().backend(backend).build().map((x: Int) => slow(x) + backend.name().length, 1 to 3); "ran" }
             |  catch { case e: Exception => e.getClass.getName + ": " + e.getMessage }""".stripMargin)
    val held = nb.valueOf[String]("held")
    held should startWith("io.joblib4j.TaskSerializationException: task 0 of lambda in held cannot be sent" +
      " to Spark executors: io.joblib4j.spark.SparkBackend is not Serializable")
    held should include("field 'backend' (io.joblib4j.spark.SparkBackend)") // the end of the path through the cells
    nb.run("@transient val backend = new io.joblib4j.spark.SparkBackend(spark)")
    nb.run("val fine = Parallel.builder().backend(backend).build().map((x: Int) => slow(x), 1 to 3)")
    nb.valueOf[Seq[Int]]("fine") shouldBe Seq(3, 6, 9)
  }

  test("examples/notebooks: the Zeppelin note runs paragraph by paragraph") {
    runExample("joblib4j-zeppelin.zpln")
  }

  test("examples/notebooks: the Databricks Scala notebook runs cell by cell") {
    runExample("joblib4j-databricks.scala")
  }

  private def runExample(name: String): Unit = {
    val file = new File(NotebookSpark.required("joblib4j.it.notebooks"), name)
    val cells = Notebook.cellsOf(file)
    cells.size should be >= 3
    val output = cells.map(nb.run).mkString("\n")
    output should include("features cached:")
    output should not include "$line"
  }

  private def deleteRecursively(path: Path): Unit =
    if (Files.exists(path)) {
      val walk = Files.walk(path)
      try walk.sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.delete(p))
      finally walk.close()
    }
}
