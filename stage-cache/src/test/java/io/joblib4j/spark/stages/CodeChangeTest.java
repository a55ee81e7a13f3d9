package io.joblib4j.spark.stages;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn1;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stage's key follows its code, the code of the UDFs in its input plans, and the values it
 * captured: the versions are classes compiled at test time, each in its own class loader, as a
 * rebuilt application jar would be. (The UDFs' inputs are cut to no rows, so that the executors of
 * local[2], which cannot see these class loaders, never run them: the key is made on the driver.)
 */
class CodeChangeTest {
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();
  private StageCache stages;
  private String input;

  private static final String SOURCE = """
      package gen;
      import static org.apache.spark.sql.functions.*;
      import org.apache.spark.sql.Dataset;
      import org.apache.spark.sql.Row;
      import org.apache.spark.sql.api.java.UDF1;
      import org.apache.spark.sql.types.DataTypes;
      public class Stages {
        public static int calls;
        public static Dataset<Row> clean(Dataset<Row> raw) {
          calls++;
          return raw.withColumn("k", %s);
        }
        public static io.joblib4j.fn.Fn1<Dataset<Row>, Dataset<Row>> stage() {
          return Stages::clean;
        }
        public static io.joblib4j.fn.Fn1<Dataset<Row>, Dataset<Row>> capturing(long offset) {
          return raw -> raw.withColumn("k", col("id").plus(offset));
        }
        public static Dataset<Row> withUdf(Dataset<Row> raw) {
          UDF1<Long, Long> f = x -> %s;
          return raw.withColumn("u", udf(f, DataTypes.LongType).apply(col("id"))).limit(0);
        }
      }
      """;

  @BeforeEach
  void setUp() {
    input = dir.resolve("raw").toString();
    spark.range(0, 20, 1, 2).write().parquet(input);
    stages = StageCache.at(spark, dir.resolve("cache").toString());
  }

  private Class<?> compile(String name, String column, String udfBody) throws IOException {
    Path src = dir.resolve(name + "/src/gen/Stages.java");
    Path out = dir.resolve(name + "/classes");
    Files.createDirectories(src.getParent());
    Files.createDirectories(out);
    Files.writeString(src, SOURCE.formatted(column, udfBody));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-d", out.toString(), "-cp", System.getProperty("java.class.path"), src.toString());
    assertThat(rc).isZero();
    try {
      return new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader()).loadClass("gen.Stages");
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Fn1<Dataset<Row>, Dataset<Row>> fn(Class<?> c, String factory, Object... args) throws Exception {
    for (var m : c.getMethods()) {
      if (m.getName().equals(factory) && m.getParameterCount() == args.length) {
        return (Fn1<Dataset<Row>, Dataset<Row>>) m.invoke(null, args);
      }
    }
    throw new AssertionError(factory);
  }

  private static int calls(Class<?> c) throws Exception {
    return c.getField("calls").getInt(null);
  }

  private Dataset<Row> raw() {
    return spark.read().parquet(input);
  }

  @Test
  void changedStageCodeRecomputesAndAnIdenticalRecompileHits() throws Exception {
    Class<?> v1 = compile("v1", "col(\"id\").plus(1)", "x");
    assertThat(stages.cache(fn(v1, "stage")).apply(raw()).agg(org.apache.spark.sql.functions.sum("k")).first()
        .getLong(0)).isEqualTo(210);
    assertThat(calls(v1)).isEqualTo(1);

    Class<?> same = compile("same", "col(\"id\").plus(1)", "x");
    stages.cache(fn(same, "stage")).apply(raw());
    assertThat(calls(same)).isZero();

    Class<?> v2 = compile("v2", "col(\"id\").plus(2)", "x");
    Stage1<Dataset<Row>> changed = stages.cache(fn(v2, "stage"));
    assertThat(changed.explain(raw()).toString()).contains("function: now Stages.clean");
    assertThat(changed.apply(raw()).agg(org.apache.spark.sql.functions.sum("k")).first().getLong(0)).isEqualTo(230);
    assertThat(calls(v2)).isEqualTo(1);
  }

  @Test
  void aChangedCapturedValueRecomputes() throws Exception {
    Class<?> c = compile("cap", "col(\"id\")", "x");
    stages.cache(fn(c, "capturing", 5L)).apply(raw());
    assertThat(stages.cache(fn(c, "capturing", 5L)).explain(raw()).toString()).contains("is stored");
    String other = stages.cache(fn(c, "capturing", 6L)).explain(raw()).toString();
    assertThat(other).contains("misses").contains("function: now lambda in Stages.capturing");
  }

  @Test
  void aChangedUdfBodyInAnInputPlanRecomputesAndAnIdenticalRecompileHits() throws Exception {
    Stage1<Dataset<Row>> enrich = stages.cache(Pipelines::enrich);
    Class<?> v1 = compile("u1", "col(\"id\")", "x + 1");
    enrich.apply((Dataset<Row>) v1.getMethod("withUdf", Dataset.class).invoke(null, raw()));
    Class<?> same = compile("u1again", "col(\"id\")", "x + 1");
    assertThat(enrich.explain((Dataset<Row>) same.getMethod("withUdf", Dataset.class).invoke(null, raw())).toString())
        .contains("is stored");
    Class<?> v2 = compile("u2", "col(\"id\")", "x + 2");
    String explained = enrich.explain((Dataset<Row>) v2.getMethod("withUdf", Dataset.class).invoke(null, raw())).toString();
    assertThat(explained).contains("misses").contains("arg0.code").doesNotContain("arg0.plan")
        .doesNotContain("arg0.inputs");
  }
}
