package io.joblib4j.scala

import io.joblib4j.{Delayed, MemoizedFn1, Memory, Parallel}
import java.nio.file.{Files, Path}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite
import org.scalatest.matchers.should.Matchers

/** The Scala API as a compiled Scala program uses it; the notebook side is NotebookIT. */
class ScalaApiTest extends AnyFunSuite with Matchers with BeforeAndAfterAll {
  import Fixtures._

  private val p = Parallel.builder().backend("threads").nJobs(2).verbose(0).build()
  private lazy val dir: Path = Files.createTempDirectory("joblib4j-scala-test")

  private def memory(name: String) = Memory.builder(dir.resolve(name)).verbose(0).build()

  override def afterAll(): Unit = p.close()

  test("a method value is accepted where a Parallel expects a function, over Scala collections") {
    p.map(double _, List(1, 2, 3)) shouldBe Seq(2, 4, 6)
    p.map(double _, 1 to 4) shouldBe Seq(2, 4, 6, 8)
    p.map(double _, Iterator(5, 6)) shouldBe Seq(10, 12)
    p.map((x: Int) => x + 1, Vector(1, 2)) shouldBe Seq(2, 3)
  }

  test("joblib's delayed(f)(x): tasks from a Scala collection, results as a Seq in input order") {
    p.run((1 to 5).map(delayed(double _))) shouldBe Seq(2, 4, 6, 8, 10)
    p.run(Seq(delayed(label _)("a", 1), delayed(label _)("b", 2))) shouldBe Seq("a-1", "b-2")
    p.run(Seq(delayed(sum6 _)(1, 2, 3, 4, 5, 6))) shouldBe Seq(21)
    p.run(Seq(delayed(() => 42)())) shouldBe Seq(42)
  }

  test("Function0..6 values go where Fn0..Fn6 are expected, Java's delayed(f, x) too") {
    val f0 = () => 1
    val f3 = (a: Int, b: Int, c: Int) => a * b * c
    // the element type is given: Scala 2.12 infers Seq[Delayed[_ >: Int]] for the three, which no
    // run[R] takes (Delayed is invariant); 2.13 infers Delayed[Int]
    p.run(Seq[Delayed[Int]](Delayed.delayed(f0), Delayed.delayed(f3, 2, 3, 4), Delayed.delayed(double _, 21))) shouldBe
      Seq(1, 24, 42)
  }

  test("iterate and iterateUnordered stream into Scala iterators") {
    val ordered = p.iterate((1 to 20).map(delayed(double _)))
    try ordered.toList shouldBe (1 to 20).map(_ * 2).toList
    finally ordered.close()
    val unordered = p.iterateUnordered((1 to 20).map(delayed(double _)))
    try unordered.toSet shouldBe (1 to 20).map(_ * 2).toSet
    finally unordered.close()
  }

  test("closing a Scala results iterator early cancels the call and frees the Parallel") {
    val it = p.iterate(Iterator.from(1).take(10000).map(delayed(double _)))
    it.next() shouldBe 2
    it.close()
    p.map(double _, Seq(1)) shouldBe Seq(2)
  }

  test("memory.cache(slow _) is a memoized function called as f(x); the second call loads") {
    val cached: MemoizedFn1[Int, Int] = memory("slow").cache(slow _)
    val before = calls.get()
    cached(4) shouldBe 40
    cached(4) shouldBe 40
    calls.get() - before shouldBe 1
    cached.checkCallInCache(4) shouldBe true
    cached.function() shouldBe "Fixtures.slow"
    Seq(4, 4).map(cached) shouldBe Seq(40, 40) // a Scala function where one is expected
    calls.get() - before shouldBe 1
  }

  // Scala 2.12 could not infer through the Java API's wildcards (Fn1[_ >: A, _ <: R]) for these
  // spellings: "type mismatch; found Fn1[Int,Array[Double]], required Fn1[_ >: Int, _ <: ?0]".
  test("a method value without declared types is cached, evaluated and delayed as written in joblib") {
    val m = memory("untyped")
    val cached = m.cache(features _)
    cached(3).toSeq shouldBe Seq(3.0, 1.5)
    cached.checkCallInCache(3) shouldBe true
    m.eval(features _, 4).toSeq shouldBe Seq(4.0, 2.0)
    p.run(Seq(Delayed.delayed(features _, 5))).map(_.toSeq) shouldBe Seq(Seq(5.0, 2.5))
    p.map(features _, java.util.Arrays.asList(6)).get(0).toSeq shouldBe Seq(6.0, 3.0)
  }

  test("two method values of one def are one cached function, whatever the call site") {
    val m = memory("shared")
    val before = calls.get()
    m.cache(slow _)(7) shouldBe 70
    m.cache(Fixtures.slow _)(7) shouldBe 70
    m.cache((x: Int) => slow(x))(7) shouldBe 70
    calls.get() - before shouldBe 1
  }

  test("a lambda is its own function, and its captured values are part of the key") {
    val m = memory("lambda")
    def scaled(k: Int) = m.cache((x: Int) => { calls.incrementAndGet(); x * k })
    val before = calls.get()
    scaled(2)(5) shouldBe 10
    scaled(3)(5) shouldBe 15
    scaled(2)(5) shouldBe 10
    calls.get() - before shouldBe 2
  }

  test("a method value of an instance is keyed by the instance") {
    val m = memory("instance")
    val (two, three) = (new Scorer(2), new Scorer(3))
    m.cache(two.score _)(5) shouldBe 10
    m.cache(three.score _)(5) shouldBe 15
  }

  test("memoized functions are called inside Parallel tasks") {
    val cached = memory("inside").cache(slow _)
    val before = calls.get()
    p.map(cached, 1 to 6) shouldBe (1 to 6).map(_ * 10)
    p.run((1 to 6).map(delayed(cached))) shouldBe (1 to 6).map(_ * 10)
    calls.get() - before shouldBe 6
  }

  test("tasks and memoized functions are named after the Scala function") {
    delayed(double _)(1).functionName() shouldBe "Fixtures.double"
    val scorer = new Scorer(2)
    delayed(scorer.score _)(1).functionName() shouldBe "Scorer.score"
    val inc = (x: Int) => x + 1
    delayed(inc)(1).functionName() should startWith("lambda in ")
    delayed(inc)(1).functionName() should not include "$"
    memory("names").cache(label _).function() shouldBe "Fixtures.label"
    Delayed.delayed(math.sqrt _, 4.0).functionName() shouldBe "math.sqrt"
  }

  test("a failing task throws its own exception, and the note names the Scala function") {
    val e = intercept[IllegalStateException](p.map(failOn3 _, 1 to 5))
    e.getMessage shouldBe "no 3 please"
    e.getSuppressed.map(_.getMessage).mkString should include("Fixtures.failOn3")
  }

  test("a Scala function given as an initializer runs in each worker") {
    val seen = new java.util.concurrent.ConcurrentHashMap[String, Boolean]()
    val init = () => { seen.put(Thread.currentThread().getName, true); () }
    val q = Parallel.builder().backend("threads").nJobs(2).initializer(init).build()
    try q.map(double _, 1 to 20) shouldBe (1 to 20).map(_ * 2)
    finally q.close()
    seen.size() should be >= 1
  }

  test("tasks of Scala functions travel to child JVMs") {
    val q = Parallel.builder().backend("processes").nJobs(1).build()
    try q.map(double _, Seq(1, 2, 3)) shouldBe Seq(2, 4, 6)
    finally q.close()
  }
}
