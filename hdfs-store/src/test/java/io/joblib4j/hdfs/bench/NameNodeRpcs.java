package io.joblib4j.hdfs.bench;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The RPCs a MiniDFSCluster's NameNode has served, by method, from its own per-method RPC metrics
 * ({@code RpcDetailedActivityForPort<port>}, what its JMX shows, read without JMX's cache). The
 * DataNode's calls (heartbeats, block reports), which share the port in a MiniDFSCluster, and the
 * clients' lease renewals (a background thread's, once a few seconds per client with files open) are
 * left out: the counts are those of the operations measured.
 */
public final class NameNodeRpcs {
  private static final Set<String> DATANODE_CALLS = Set.of("SendHeartbeat", "BlockReceivedAndDeleted", "BlockReport",
      "CacheReport", "SendLifeline", "VersionRequest", "RegisterDatanode", "ErrorReport", "ReportBadBlocks",
      "CommitBlockSynchronization", "RenewLease");
  private final String source;

  NameNodeRpcs(MiniDFSCluster dfs) {
    this.source = "RpcDetailedActivityForPort" + dfs.getNameNodePort();
  }

  /** Calls served so far, by method. */
  Map<String, Long> counts() {
    MetricsSource src = DefaultMetricsSystem.instance().getSource(source);
    if (src == null) {
      throw new IllegalStateException("no metrics source " + source);
    }
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    src.getMetrics(collector, true);
    Map<String, Long> out = new TreeMap<>();
    for (MetricsRecord r : collector.getRecords()) {
      for (AbstractMetric m : r.metrics()) {
        String name = m.name();
        // "Overall..." repeats each call with its queue time, "...Exception" counts failed calls again
        if (name.endsWith("NumOps") && !name.contains("Deferred") && !name.startsWith("Overall")
            && !name.contains("Exception")) {
          String method = name.substring(0, name.length() - "NumOps".length());
          if (!DATANODE_CALLS.contains(method)) {
            out.merge(method, m.value().longValue(), Long::sum);
          }
        }
      }
    }
    return out;
  }

  /** The counters that changed from {@code before} to {@code after}, by how much (S3 request counts too). */
  public static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    after.forEach((k, v) -> {
      long n = v - before.getOrDefault(k, 0L);
      if (n != 0) {
        d.put(k, n);
      }
    });
    return d;
  }
}
