package io.joblib4j.spark.stages.internal;

import io.joblib4j.FunctionFingerprint;
import io.joblib4j.Joblib;
import io.joblib4j.spark.stages.StageKeyException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.trees.TreeNode;
import org.apache.spark.sql.execution.datasources.FileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.FileTable;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.types.DataType;

/**
 * The key of one Dataset argument, from its analyzed logical plan: three components, so that
 * {@code explain} can say which one changed.
 *
 * <ul>
 *   <li>{@code plan}: the canonicalized analyzed plan as Spark's JSON ({@code TreeNode.toJSON}), in
 *       which Spark numbers expression ids from 0 and names attributes {@code none}; the JVM's id
 *       Spark puts in every expression id is removed. Stable across JVMs and runs.
 *   <li>{@code inputs}: what its leaves read. Files of a file relation (also a catalog table's, and a
 *       Spark V2 file table's): each file the Dataset's index names (path, length and modification
 *       time as Spark listed them when the Dataset was made: what Spark will read), and what storage
 *       holds for it when the stage is called ({@link StoredFiles}: the roots listed again, each
 *       file's length, modification time and its store's identity, optionally a content checksum;
 *       or that it is gone), with the format, options and schemas; a local relation's rows; the
 *       key of another stage whose output it reads (recognized by its data folder, no listing).
 *   <li>{@code code}: the functions the plan runs, with {@link FunctionFingerprint}: UDFs (Scala and
 *       Java), typed operations ({@code map}, {@code filter} with a lambda, {@code mapPartitions},
 *       {@code groupByKey} functions), aggregators, in plan order.
 * </ul>
 *
 * Refused, with a {@link StageKeyException} naming the part and the opt-in: non-deterministic
 * expressions (also the clock: {@code current_timestamp()} and its kind) unless allowed; streaming
 * Datasets always; RDD-backed, JDBC, and any other relation whose content cannot be seen, unless
 * the stage has a key of its own for its inputs.
 */
public final class PlanKeys {
  /** Deterministic for Spark, but read the clock (or who runs): a stored result would be stale. */
  private static final Set<String> CLOCK_EXPRESSIONS = Set.of("CurrentTimestamp", "CurrentDate", "Now",
      "LocalTimestamp", "CurrentTime", "CurrentBatchTimestamp", "CurrentUser");
  /** Leaves whose whole content is in the plan's JSON. */
  private static final Set<String> SELF_CONTAINED_LEAVES = Set.of("Range", "OneRowRelation", "CTERelationRef",
      "LocalLimit", "EmptyRelation");
  /** Why a Delta read other than a plain or time-travel one is refused. */
  private static final String DELTA_SHAPES = "the stage cache finds the version of a Delta table only in a plain"
      + " read of it (spark.read().format(\"delta\").load(path), spark.table(name)) or a time-travel one"
      + " (versionAsOf, timestampAsOf), and cannot see which version this one reads";
  private static final Pattern JVM_ID = Pattern.compile(",?\"jvmId\":\"[0-9a-f-]{36}\"");

  /** What the stage allows; see {@code Stage1.allowNondeterministic} and {@code inputKey}. */
  public record Allowances(boolean nondeterministic, boolean ownInputKey, boolean inputChecksums) {}

  private PlanKeys() {}

  /**
   * Adds {@code prefix.plan}, {@code prefix.inputs} and {@code prefix.code} for {@code ds}. Returns
   * the plain (not time-travel) Delta reads it keyed, location to version: a call that computes
   * reads them at those versions ({@link DeltaTables#readAt}).
   */
  public static Map<String, Long> addDataset(StageKey parts, String prefix, Dataset<?> ds, Allowances allow) {
    if (ds.isStreaming()) {
      throw new StageKeyException(prefix + " is a streaming Dataset: a stage's result must be a finite"
          + " table. Cache the stage on a batch Dataset (spark.read() instead of spark.readStream()).");
    }
    LogicalPlan plan = ds.queryExecution().analyzed();
    Walk walk = new Walk(prefix, allow, ds.sparkSession());
    PlanWalks.foreachWithSubqueries(plan, walk::node);
    String json = JVM_ID.matcher(plan.canonicalized().toJSON()).replaceAll("");
    parts.add(prefix + ".plan", Joblib.hash(json.getBytes(StandardCharsets.UTF_8)), "its analyzed plan ("
        + walk.nodes + " operators)");
    parts.add(prefix + ".inputs", Joblib.hash(walk.inputs.toString().getBytes(StandardCharsets.UTF_8)),
        walk.inputsDescribed.isEmpty() ? "no inputs" : String.join("; ", walk.inputsDescribed));
    parts.add(prefix + ".code", Joblib.hash(walk.code), walk.codeNames.isEmpty() ? "no UDFs or typed functions"
        : "the code of " + String.join(", ", walk.codeNames));
    for (String d : walk.inputsDescribed) {
      parts.input(prefix + ": " + d);
    }
    return walk.deltaPins;
  }

  /** One pass over a plan and its subqueries. */
  private static final class Walk {
    final String prefix;
    final Allowances allow;
    final SparkSession spark;
    final StringBuilder inputs = new StringBuilder();
    final List<String> inputsDescribed = new ArrayList<>();
    final List<String> code = new ArrayList<>();
    final List<String> codeNames = new ArrayList<>();
    final Map<Object, Boolean> seenFunctions = new IdentityHashMap<>();
    final Map<String, Long> deltaPins = new TreeMap<>();
    int nodes;

    Walk(String prefix, Allowances allow, SparkSession spark) {
      this.prefix = prefix;
      this.allow = allow;
      this.spark = spark;
    }

    void node(LogicalPlan node) {
      nodes++;
      functionsIn(node);
      for (Expression e : ScalaCollections.asJava(node.expressions())) {
        e.foreach(x -> {
          expression(x, node);
          return null;
        });
      }
      if (node.children().isEmpty()) {
        leaf(node);
      }
    }

    void expression(Expression x, LogicalPlan node) {
      functionsIn(x);
      String kind = x.getClass().getSimpleName();
      if (!allow.nondeterministic() && (!x.deterministic() && x.children().forall(Expression::deterministic)
          || CLOCK_EXPRESSIONS.contains(kind))) {
        throw new StageKeyException(prefix + " is not deterministic: its " + node.nodeName() + " uses "
            + shorten(x.toString()) + " (" + x.prettyName() + "), which gives other values on each run, so a stored"
            + " result would not be what the stage computes. Pass the value in as a plain argument (a seed, a"
            + " timestamp), or opt in with .allowNondeterministic() if any of its results will do.");
      }
    }

    /** The functions a node or expression holds among its constructor fields (UDFs, typed operations). */
    void functionsIn(TreeNode<?> n) {
      scala.collection.Iterator<Object> it = n.productIterator();
      while (it.hasNext()) {
        Object o = it.next();
        if (isFunction(o) && seenFunctions.put(o, Boolean.TRUE) == null) {
          FunctionFingerprint f;
          try {
            f = FunctionFingerprint.of(o);
          } catch (IllegalArgumentException e) {
            throw new StageKeyException(prefix + ": the function " + o.getClass().getName() + " of its "
                + n.nodeName() + " cannot be keyed: " + e.getMessage());
          }
          code.add(f.identity());
          code.add(f.hash());
          codeNames.add(f.name());
        }
      }
    }

    void leaf(LogicalPlan leaf) {
      String kind = leaf.getClass().getSimpleName();
      if (leaf.isStreaming()) {
        throw new StageKeyException(prefix + " reads a stream (" + leaf.nodeName() + "): a stage's result must be"
            + " a finite table. Cache the stage on a batch Dataset.");
      }
      if (leaf instanceof LogicalRelation lr) {
        relation(lr.relation());
      } else if (leaf instanceof LocalRelation local) {
        localRows(local);
      } else if (leaf instanceof DataSourceV2Relation v2) {
        if (v2.table() instanceof FileTable ft) {
          files(ft.fileIndex(), ft.formatName(), Map.of(), ft.schema().json());
        } else if (DeltaTables.isDelta(v2.table())) {
          refuse("the Delta table " + v2.table().name() + " as a DataSource V2 table (" + v2.table().getClass().getName()
              + ")", DELTA_SHAPES);
        } else if (v2.table().getClass().getName().startsWith("org.apache.iceberg.")) {
          refuse("the Iceberg table " + v2.table().name(), "the stage cache does not read Iceberg snapshot ids (Iceberg"
              + " publishes no Spark runtime for Spark 4.2, so this could not be built and tested)");
        } else {
          refuse("the table " + v2.table().name() + " (" + v2.table().getClass().getName() + ")",
              "its content has no version the stage cache can read (a JDBC or other DataSource V2 table)");
        }
      } else if (kind.equals("LogicalRDD") || kind.equals("ExternalRDD")) {
        refuse("an RDD (" + leaf.nodeName() + ", from createDataFrame(rdd) or rdd.toDS())",
            "an RDD's content is code the stage cache cannot see; write it out and read the files, or");
      } else if (!SELF_CONTAINED_LEAVES.contains(kind)) {
        refuse("a " + leaf.nodeName() + " (" + leaf.getClass().getName() + ")", "the stage cache does not know how"
            + " to fingerprint its content");
      }
    }

    void relation(BaseRelation relation) {
      if (relation instanceof HadoopFsRelation fs) {
        TreeMap<String, String> options = new TreeMap<>(ScalaCollections.asJava(fs.options()));
        files(fs.location(), fs.fileFormat().toString(), options, fs.dataSchema().json() + fs.partitionSchema().json());
        return;
      }
      String cls = relation.getClass().getName();
      if (DeltaTables.isDelta(relation)) {
        refuse("a Delta table through a " + cls + " (a change data feed or another read of Delta's own)", DELTA_SHAPES);
        return;
      }
      if (cls.contains(".jdbc.")) {
        refuse("a JDBC table (" + relation + ")", "a database table has no version the stage cache can read");
      }
      refuse("the relation " + cls, "the stage cache does not know how to fingerprint its content");
    }

    void files(FileIndex index, String format, Map<String, String> options, String schemas) {
      if (DeltaTables.isDelta(index)) {
        delta(index, schemas);
        return;
      }
      List<String> roots = new ArrayList<>();
      for (Path p : ScalaCollections.asJava(index.rootPaths())) {
        roots.add(p.toString());
      }
      List<String> stages = new ArrayList<>();
      for (String r : roots) {
        StageLayout.stageOutputOf(r).ifPresent(stages::add);
      }
      if (!roots.isEmpty() && stages.size() == roots.size()) {
        for (String s : stages) {
          inputs.append("stage\t").append(s).append('\n');
          inputsDescribed.add("stage " + s);
        }
        inputs.append(format).append('\t').append(options).append('\t').append(schemas).append('\n');
        return;
      }
      FileIndex listed = index;
      if (index.getClass().getSimpleName().equals("CatalogFileIndex")) {
        listed = ((org.apache.spark.sql.execution.datasources.CatalogFileIndex) index)
            .filterPartitions(ScalaCollections.<Expression>emptySeq());
      }
      if (!(listed instanceof PartitioningAwareFileIndex files)) {
        refuse("files through a " + index.getClass().getName(), "the stage cache does not know how to list them");
        return;
      }
      List<FileStatus> all = new ArrayList<>(ScalaCollections.asJava(files.allFiles()));
      all.sort(Comparator.comparing(f -> f.getPath().toString()));
      List<StoredFiles.Named> named = new ArrayList<>(all.size());
      long bytes = 0;
      for (FileStatus f : all) {
        named.add(new StoredFiles.Named(f.getPath().toString(), f.getLen(), f.getModificationTime()));
        bytes += f.getLen();
      }
      List<Path> listedRoots = new ArrayList<>(ScalaCollections.asJava(listed.rootPaths()));
      AtomicInteger gone = new AtomicInteger();
      for (String line : StoredFiles.describe(hadoopConf(options), listedRoots, named, allow.inputChecksums(), gone)) {
        inputs.append(line).append('\n');
      }
      inputs.append(format).append('\t').append(options).append('\t').append(schemas).append('\n');
      inputsDescribed.add(all.size() + " " + format + " file" + (all.size() == 1 ? "" : "s") + " (" + bytes + " bytes) under "
          + String.join(", ", roots) + (allow.inputChecksums() ? ", with content checksums" : "")
          + (gone.get() > 0 ? ", " + gone.get() + " of them gone since the Dataset listed them" : ""));
    }

    /** The Hadoop settings Spark reads these files with: the context's, the session's SQL settings, the read's options. */
    Configuration hadoopConf(Map<String, String> options) {
      Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
      ScalaCollections.asJava(spark.conf().getAll()).forEach((k, v) -> {
        if (v != null) {
          conf.set(k, v);
        }
      });
      options.forEach((k, v) -> {
        if (v != null) {
          conf.set(k, v);
        }
      });
      return conf;
    }

    /** A Delta table: its location, table id and the version the plan reads (its snapshot at analysis). */
    void delta(FileIndex index, String schemas) {
      java.util.Optional<DeltaTables.Version> found = DeltaTables.versionOf(index);
      if (found.isEmpty()) {
        refuse("a Delta table through a " + index.getClass().getName(), DELTA_SHAPES);
        return;
      }
      DeltaTables.Version v = found.get();
      inputs.append("delta\t").append(v.location()).append('\t').append(v.tableId()).append('\t').append(v.version())
          .append('\t').append(schemas).append('\n');
      inputsDescribed.add("Delta table " + v.location() + " at version " + v.version()
          + (v.timeTravel() ? " (versionAsOf)" : ""));
      if (!v.timeTravel()) {
        Long other = deltaPins.put(v.location(), v.version());
        if (other != null && other != v.version()) {
          throw new StageKeyException(prefix + " reads the Delta table " + v.location() + " at two versions ("
              + other + " and " + v.version() + ") without versionAsOf: make both reads again, or pin them with"
              + " versionAsOf");
        }
      }
    }

    void localRows(LocalRelation local) {
      List<Attribute> output = ScalaCollections.asJava(local.output());
      DataType[] types = output.stream().map(Attribute::dataType).toArray(DataType[]::new);
      UnsafeProjection project = UnsafeProjection.create(types);
      ByteArrayOutputStream rows = new ByteArrayOutputStream();
      int n = 0;
      for (InternalRow row : ScalaCollections.asJava(local.data())) {
        byte[] b = project.apply(row).getBytes();
        rows.write(b.length >>> 24);
        rows.write(b.length >>> 16);
        rows.write(b.length >>> 8);
        rows.write(b.length);
        rows.writeBytes(b);
        n++;
      }
      inputs.append("local\t").append(n).append('\t').append(Joblib.hash(rows.toByteArray())).append('\n');
      inputsDescribed.add(n + " local row" + (n == 1 ? "" : "s"));
    }

    void refuse(String what, String why) {
      if (allow.ownInputKey()) {
        inputs.append("own key\t").append(what).append('\n');
        inputsDescribed.add(what + " (keyed by the stage's inputKey)");
        return;
      }
      throw new StageKeyException(prefix + " reads " + what + ", which cannot be keyed: " + why + ". Give the stage"
          + " a key of your own for what it reads, such as a table version or an export date:"
          + " stage.inputKey(\"orders@2026-12-01\").");
    }
  }

  /**
   * Whether a node's field is a function of the user's: a lambda, or an object implementing Scala's,
   * Spark's Java or SQL function types (collections are Scala functions too, and are not).
   */
  static boolean isFunction(Object o) {
    if (o == null || o instanceof TreeNode || o instanceof scala.collection.Iterable || o instanceof DataType
        || o instanceof CharSequence || o instanceof Number || o instanceof Boolean || o instanceof scala.Option) {
      return false;
    }
    Class<?> c = o.getClass();
    if (c.isSynthetic() && c.getName().contains("$$Lambda")) {
      return true;
    }
    if (o instanceof scala.Function0 || o instanceof scala.Function1 || o instanceof scala.Function2
        || o instanceof scala.Function3 || o instanceof org.apache.spark.sql.expressions.Aggregator
        || o instanceof org.apache.spark.sql.expressions.UserDefinedAggregateFunction) {
      return true;
    }
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      for (Class<?> i : k.getInterfaces()) {
        String n = i.getName();
        if (n.startsWith("org.apache.spark.api.java.function.") || n.startsWith("org.apache.spark.sql.api.java.UDF")) {
          return true;
        }
      }
    }
    return false;
  }

  private static String shorten(String s) {
    return s.length() <= 120 ? s : s.substring(0, 117) + "...";
  }
}
