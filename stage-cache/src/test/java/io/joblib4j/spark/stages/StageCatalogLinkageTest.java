package io.joblib4j.spark.stages;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.spark.stages.internal.EntryCatalog;
import io.joblib4j.spark.stages.internal.EntryRecord;
import io.joblib4j.spark.stages.internal.StageLayout;
import io.joblib4j.spark.stages.internal.StageLimits;
import io.joblib4j.spark.stages.internal.StageSettings;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * The command line lists, sizes, prunes and clears stage entries with StageCatalog and the layout
 * classes, with only a Hadoop client (or nothing) on its class path: none of them may name a Spark
 * or Scala type, or a class of this module that does.
 */
class StageCatalogLinkageTest {
  private static final List<Class<?>> SPARK_FREE = List.of(StageCatalog.class, StageEntry.class,
      EntryCatalog.class, EntryCatalog.Listed.class, EntryRecord.class, EntryRecord.DataFile.class, StageLayout.class,
      StageLimits.class, StageSettings.class);

  @Test
  void theCatalogAndTheLayoutNameNoSparkOrScalaType() throws IOException {
    Set<String> allowedOwnClasses = new TreeSet<>();
    List<Class<?>> checked = new ArrayList<>();
    for (Class<?> c : SPARK_FREE) {
      allowedOwnClasses.add(c.getName().replace('.', '/'));
      checked.add(c);
      // their nested classes (private records among them) are held to the same rule
      for (Class<?> nested : c.getDeclaredClasses()) {
        allowedOwnClasses.add(nested.getName().replace('.', '/'));
        checked.add(nested);
      }
    }
    List<String> offending = new ArrayList<>();
    for (Class<?> c : checked) {
      for (String ref : referencedClasses(c)) {
        boolean ownModule = ref.startsWith("io/joblib4j/spark/") && !ref.startsWith("io/joblib4j/spark/Spark");
        if (ref.startsWith("org/apache/spark/") || ref.startsWith("scala/")
            || ownModule && !allowedOwnClasses.contains(ref)) {
          offending.add(c.getSimpleName() + " -> " + ref);
        }
      }
    }
    assertThat(offending).isEmpty();
  }

  private static Set<String> referencedClasses(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
      ClassReader reader = new ClassReader(in);
      char[] buf = new char[reader.getMaxStringLength()];
      Set<String> out = new TreeSet<>();
      for (int i = 1; i < reader.getItemCount(); i++) {
        int offset = reader.getItem(i);
        if (offset > 0 && reader.readByte(offset - 1) == 7) { // CONSTANT_Class
          String name = reader.readUTF8(offset, buf);
          out.add(name.replaceAll("^\\[+L|;$", ""));
        }
      }
      return out;
    }
  }
}
