package io.joblib4j.examples.spark;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.sql.SparkSession;

/**
 * A spark-submit application: scores 32 folds against one 16 MB model on the cluster's
 * executors with {@code backend("spark")}, the same code that would run on threads.
 *
 * <pre>
 * spark-submit --class io.joblib4j.examples.spark.SparkScoring \
 *   --jars joblib4j-spark-4-bundle_2.13-0.1.0-SNAPSHOT.jar \
 *   joblib4j-examples-0.1.0-SNAPSHOT.jar
 * </pre>
 *
 * The model travels once to each executor (it is larger than {@code maxNbytes}, so it becomes a
 * broadcast); the initializer loads the feature table once in each executor JVM. It checks every
 * score against a local computation and exits with status 1 if one differs.
 */
public final class SparkScoring {
  private static final int FOLDS = 32;

  private SparkScoring() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().appName("joblib4j spark-submit example").getOrCreate();
    int status;
    try {
      status = run() ? 0 : 1;
    } finally {
      spark.stop();
    }
    System.exit(status);
  }

  static boolean run() {
    double[] model = model(2_000_000, 42);
    List<String> scored;
    try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).verbose(5)
        .initializer(FeatureTable::load).build()) {
      System.out.println("joblib4j example: " + p.effectiveNJobs() + " workers");
      scored = p.run(IntStream.range(0, FOLDS).mapToObj(fold -> delayed(SparkScoring::score, model, fold)));
    }
    FeatureTable.load(); // the driver's own copy, for the check
    boolean ok = true;
    Set<String> jvms = new TreeSet<>();
    for (int fold = 0; fold < FOLDS; fold++) {
      String[] parts = scored.get(fold).split(" ");
      jvms.add(parts[1]);
      double expected = dot(model, FeatureTable.row(fold));
      if (Double.parseDouble(parts[0]) != expected) {
        System.out.println("joblib4j example: fold " + fold + " scored " + parts[0] + ", expected " + expected);
        ok = false;
      }
    }
    System.out.println("joblib4j example: " + FOLDS + " folds scored in " + jvms.size() + " JVMs "
        + jvms.stream().collect(Collectors.joining(",", "[", "]")) + (ok ? ", all correct" : ", WRONG"));
    return ok;
  }

  /** One fold's score and the pid of the JVM that computed it. */
  static String score(double[] model, int fold) {
    return dot(model, FeatureTable.row(fold)) + " " + ProcessHandle.current().pid();
  }

  private static double dot(double[] model, double[] row) {
    double s = 0;
    for (int i = 0; i < model.length; i++) {
      s += model[i] * row[i % row.length];
    }
    return s;
  }

  private static double[] model(int size, long seed) {
    Random r = new Random(seed);
    double[] m = new double[size];
    for (int i = 0; i < size; i++) {
      m[i] = r.nextGaussian();
    }
    return m;
  }

  /**
   * Per-JVM state a task needs, set up by the worker initializer in each executor (a stand-in for
   * a dictionary, a native library or a model loaded from disk).
   */
  static final class FeatureTable {
    private static volatile double[][] rows;

    private FeatureTable() {}

    static void load() {
      Random r = new Random(7);
      double[][] t = new double[FOLDS][1000];
      for (double[] row : t) {
        for (int i = 0; i < row.length; i++) {
          row[i] = r.nextDouble();
        }
      }
      rows = t;
    }

    static double[] row(int fold) {
      if (rows == null) {
        throw new IllegalStateException("FeatureTable.load() has not run in this JVM");
      }
      return rows[fold];
    }
  }
}
