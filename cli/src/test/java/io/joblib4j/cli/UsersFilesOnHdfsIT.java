package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.MiniDfs;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 37's reproductions on a MiniDFSCluster: the command never deletes or writes what is not
 * joblib4j's, says "permission denied" for what it could not read, and never repairs it away.
 * HDFS checks permissions for a user other than the one that started the cluster, so "another
 * user" is a {@link UserGroupInformation} in this JVM.
 */
class UsersFilesOnHdfsIT {
  static MiniDFSCluster cluster;
  static Configuration conf;

  @BeforeAll
  static void cluster() {
    cluster = MiniDfs.shared();
    conf = MiniDfs.clientConf(cluster);
  }

  private static void write(URI uri, String path, String content) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(uri, conf);
        OutputStream o = fs.create(new Path(uri + "/" + path), true)) {
      o.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static URI fresh(String name) {
    return MiniDfs.uri(cluster, "/" + name + "-" + UUID.randomUUID());
  }

  @Test
  void verifyRepairLeavesAUsersFolderNamedLikeAFunctionFolderOnHdfs() throws Exception {
    URI empty = fresh("u");
    write(empty, "exports-20240101abcd/report.csv", "mine\n");
    write(empty, "exports-20240101abcd/sub/x.csv", "x\n");
    Map<String, String> before = HdfsCaches.snapshot(empty, conf);
    Run none = Run.of("verify", empty.toString(), "--repair");
    assertThat(none.code()).as(none.toString()).isEqualTo(Main.NO_CACHE);
    assertThat(HdfsCaches.snapshot(empty, conf)).isEqualTo(before);

    URI cache = fresh("cache");
    String damaged = HdfsCaches.write(cache, conf);
    write(cache, "exports-20240101abcd/report.csv", "mine\n");
    write(cache, "exports-20240101abcd/sub/x.csv", "x\n");
    Run repair = Run.of("verify", cache.toString(), "--repair");
    assertThat(repair.code()).as(repair.toString()).isEqualTo(Main.FINDINGS);
    assertThat(repair.out()).contains(damaged).doesNotContain("exports");
    assertThat(HdfsCaches.exists(cache, conf, "exports-20240101abcd/report.csv")).isTrue();
    assertThat(HdfsCaches.exists(cache, conf, "exports-20240101abcd/sub/x.csv")).isTrue();
  }

  @Test
  void stagesClearLeavesAStagesFolderThatHoldsNoStageCacheOnHdfs() throws Exception {
    URI u2 = fresh("u2");
    write(u2, "stages/old-run/result.csv", "data\n");
    Map<String, String> before = HdfsCaches.snapshot(u2, conf);
    Run clear = Run.of("stages", "clear", u2.toString());
    assertThat(clear.code()).as(clear.toString()).isEqualTo(Main.NO_CACHE);
    assertThat(HdfsCaches.snapshot(u2, conf)).isEqualTo(before);
    for (String[] command : new String[][] {{"prune", u2.toString(), "--max-age", "0s"}, {"rm", u2.toString(), "x"}}) {
      assertThat(Run.of(command).code()).isEqualTo(Main.NO_CACHE);
    }
    assertThat(HdfsCaches.exists(u2, conf, ".gitignore")).as("no .gitignore written").isFalse();
  }

  @Test
  void stagesPruneMaxAgeZeroDeletesEveryStageEntryOnHdfs() throws Exception {
    URI cache = fresh("stages");
    String stage = "Pipeline.clean-0123456789ab";
    for (String key : new String[] {"0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"}) {
      String data = key + "." + UUID.randomUUID();
      write(cache, "stages/" + stage + "/data/" + data + "/part-0.parquet", "PAR1");
      write(cache, "stages/" + stage + "/" + key + "/entry.json", """
          {"format": 1, "stage": "%s", "name": "Pipeline.clean", "identity": "x", "key": "%s",
           "created": "2026-01-01T00:00:00Z", "data": "%s", "storage": {"format": "parquet"}, "schema": "{}",
           "rows": 1, "bytes": 4, "files": [{"path": "part-0.parquet", "bytes": 4}]}
          """.formatted(stage, key, data));
    }
    assertThat(Run.of("stages", "clear", cache.toString(), "no-such-stage").code()).isEqualTo(Main.FINDINGS);
    assertThat(Run.of("stages", "rm", cache.toString(), "no-such-stage").code()).isEqualTo(Main.FINDINGS);
    Run dry = Run.of("stages", "prune", cache.toString(), "--max-age", "0s", "--dry-run");
    assertThat(dry.err()).as(dry.toString()).contains("would delete 2 entries");
    Run prune = Run.of("stages", "prune", cache.toString(), "--max-age", "0s");
    assertThat(prune.code()).as(prune.toString()).isZero();
    assertThat(prune.err()).contains("deleted 2 entries");
    assertThat(Run.of("stages", "ls", cache.toString(), "--json").json().get("entries")).isEmpty();
    // with its last entry gone the location holds no joblib4j cache: a command that deletes says so
    assertThat(Run.of("stages", "clear", cache.toString()).code()).isEqualTo(Main.NO_CACHE);
  }

  @Test
  void whatAnotherUserCannotReadIsReportedAsPermissionDeniedAndNeverRepairedAway() throws Exception {
    URI cache = fresh("denied");
    HdfsCaches.write(cache, conf);
    String unreadable;
    try (FileSystem fs = FileSystem.newInstance(cache, conf)) {
      // every folder writable by all (so the other user could repair), one entry's output readable only by its owner
      Path root = new Path(cache);
      var files = fs.listFiles(root, true);
      Path output = null;
      while (files.hasNext()) {
        Path p = files.next().getPath();
        if (p.getName().equals("output.jl4j") && p.getParent().getParent().getName().contains(".Fns.greet-")) {
          output = p;
        }
      }
      java.util.ArrayDeque<Path> folders = new java.util.ArrayDeque<>(java.util.List.of(root));
      while (!folders.isEmpty()) {
        Path f = folders.poll();
        fs.setPermission(f, new FsPermission((short) 0777));
        for (var st : fs.listStatus(f)) {
          if (st.isDirectory()) {
            folders.add(st.getPath());
          }
        }
      }
      fs.setPermission(output, new FsPermission((short) 0600));
      unreadable = output.toUri().getPath();
    }
    UserGroupInformation other = UserGroupInformation.createRemoteUser("other");
    Run repair = other.doAs((PrivilegedExceptionAction<Run>) () -> Run.of("verify", cache.toString(), "--repair"));
    assertThat(repair.code()).as(repair.toString()).isEqualTo(Main.UNREACHABLE);
    assertThat(repair.out()).contains("unreadable").contains(unreadable.substring(unreadable.indexOf("Fns.greet-")));
    assertThat(repair.out().toLowerCase(java.util.Locale.ROOT)).contains("permission denied");
    assertThat(HdfsCaches.exists(cache, conf, unreadable.substring(cache.getPath().length() + 1))).isTrue();

    try (FileSystem fs = FileSystem.newInstance(cache, conf)) {
      fs.setPermission(new Path(unreadable).getParent().getParent(), new FsPermission((short) 0));
    }
    Run verify = other.doAs((PrivilegedExceptionAction<Run>) () -> Run.of("verify", cache.toString()));
    assertThat(verify.code()).as("a folder it cannot list: " + verify).isEqualTo(Main.UNREACHABLE);
    assertThat(verify.err()).contains("Permission denied");
  }
}
