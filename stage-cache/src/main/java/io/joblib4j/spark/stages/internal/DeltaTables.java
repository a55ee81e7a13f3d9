package io.joblib4j.spark.stages.internal;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.FileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.sources.BaseRelation;
import scala.runtime.AbstractPartialFunction;

/**
 * Delta tables in a plan, found by class name and read by reflection, so that the stage cache needs
 * no Delta on its class path. A read of a Delta table ({@code spark.read().format("delta").load(path)},
 * {@code spark.table(name)}, {@code versionAsOf}) is a file relation over Delta's {@code
 * TahoeLogFileIndex}, which holds the table's snapshot at analysis: its version and table id are
 * what a stage is keyed by.
 *
 * <p>A time-travel read scans that snapshot; a plain one scans whatever version is the latest when
 * the query runs (Delta's choice: the same Dataset counted twice may count different rows). So
 * that a stored entry holds what its key says, a missed stage is called with its plain Delta inputs
 * pinned at the keyed version ({@link #readAt}): the same plan with each such relation replaced by
 * Delta's own {@code versionAsOf} read of that version.
 */
final class DeltaTables {
  private static final String PACKAGE = "org.apache.spark.sql.delta.";
  private static final String LOG_FILE_INDEX = PACKAGE + "files.TahoeLogFileIndex";

  /**
   * A Delta table as a plan reads it.
   *
   * @param location the table's folder
   * @param tableId the id Delta gives a table when it is created (a table deleted and created again
   *     at the same folder starts again at version 0, with another id)
   * @param version the version the plan reads
   * @param timeTravel whether the plan itself pins that version ({@code versionAsOf}, {@code
   *     timestampAsOf})
   */
  record Version(String location, String tableId, long version, boolean timeTravel) {}

  private DeltaTables() {}

  /** Whether {@code o} (a file index, relation or table) is one of Delta's. */
  static boolean isDelta(Object o) {
    return o != null && o.getClass().getName().startsWith(PACKAGE);
  }

  /** The table and version a Delta file index reads, or empty if it is not a shape known here. */
  static Optional<Version> versionOf(FileIndex index) {
    if (!isA(index.getClass(), LOG_FILE_INDEX)) {
      return Optional.empty();
    }
    try {
      Object snapshot = call(index, "snapshotAtAnalysis");
      long version = ((Number) call(snapshot, "version")).longValue();
      String tableId = String.valueOf(call(call(snapshot, "metadata"), "id"));
      String location = String.valueOf(call(index, "path"));
      boolean timeTravel = ((scala.Option<?>) call(index, "versionToUse")).isDefined();
      return Optional.of(new Version(location, tableId, version, timeTravel));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * {@code ds} with each plain read of a Delta table in {@code versions} (location to version)
   * replaced by a read of that version; the plan's attributes stay as they are.
   */
  static Dataset<?> readAt(Dataset<?> ds, Map<String, Long> versions) {
    SparkSession spark = ds.sparkSession();
    LogicalPlan plan = ds.queryExecution().analyzed();
    LogicalPlan pinned = plan.transformUpWithSubqueries(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan p) {
        return unpinned(p) != null;
      }

      @Override
      public <A1 extends LogicalPlan, B1> B1 applyOrElse(A1 p, scala.Function1<A1, B1> otherwise) {
        Version v = unpinned(p);
        if (v == null) {
          return otherwise.apply(p);
        }
        Long version = versions.get(v.location());
        if (version == null) {
          throw new IllegalStateException("the Delta table " + v.location() + " was not keyed");
        }
        LogicalRelation lr = (LogicalRelation) p;
        @SuppressWarnings("unchecked")
        B1 out = (B1) LogicalRelations.reading(lr, relationAt(spark, v.location(), version));
        return out;
      }
    });
    Dataset<?> rows = Datasets.ofRows(spark, pinned);
    return rows.as(ds.encoder());
  }

  /** The Delta version a relation node reads if it is a plain (not time-travel) read, else null. */
  private static Version unpinned(LogicalPlan p) {
    if (p instanceof LogicalRelation lr && lr.relation() instanceof HadoopFsRelation fs && isDelta(fs.location())) {
      return versionOf(fs.location()).filter(v -> !v.timeTravel()).orElse(null);
    }
    return null;
  }

  /** Delta's own relation for {@code versionAsOf}: a file index pinned at that snapshot. */
  private static BaseRelation relationAt(SparkSession spark, String location, long version) {
    LogicalPlan plan = spark.read().format("delta").option("versionAsOf", version).load(location)
        .queryExecution().analyzed();
    LogicalRelation[] found = new LogicalRelation[1];
    plan.foreach(n -> {
      if (n instanceof LogicalRelation lr) {
        found[0] = lr;
      }
      return null;
    });
    if (found[0] == null || !(found[0].relation() instanceof HadoopFsRelation fs)
        || versionOf(fs.location()).filter(v -> v.timeTravel() && v.version() == version).isEmpty()) {
      throw new IllegalStateException("Delta's read of " + location + " at version " + version
          + " is not the file relation the stage cache knows (" + plan.nodeName() + ")");
    }
    return found[0].relation();
  }

  private static boolean isA(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (k.getName().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Calls a public no-argument method through a public type that declares it (Delta's classes may not be public). */
  private static Object call(Object target, String method) throws ReflectiveOperationException {
    Deque<Class<?>> types = new ArrayDeque<>();
    types.add(target.getClass());
    while (!types.isEmpty()) {
      Class<?> c = types.poll();
      if (Modifier.isPublic(c.getModifiers())) {
        try {
          Method m = c.getMethod(method);
          if (Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
            return m.invoke(target);
          }
        } catch (NoSuchMethodException e) {
          // look further up
        }
      }
      if (c.getSuperclass() != null) {
        types.add(c.getSuperclass());
      }
      types.addAll(java.util.List.of(c.getInterfaces()));
    }
    throw new NoSuchMethodException(target.getClass().getName() + "." + method + "()");
  }
}
