package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import io.joblib4j.testing.Captured;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HDFS symbolic links are off by default on both ends (the NameNode refuses to create them, the
 * client to resolve them). With both turned on in this JVM (as a test, or a library calling {@code
 * FileSystem.enableSymlinks()}, can), a function folder swapped for a link to a folder outside the
 * cache is still never followed: the store's client never resolves links.
 */
class HdfsSymlinkTest {
  @TempDir Path localCache;

  public static int twice(int x) {
    return 2 * x;
  }

  @Test
  void aFunctionFolderSwappedForALinkIsNeverFollowed() throws Exception {
    FileSystem.enableSymlinks();
    MiniDFSCluster dfs = MiniDfs.shared();
    String base = "/symlinks-" + UUID.randomUUID();
    URI location = MiniDfs.uri(dfs, base + "/cache");
    org.apache.hadoop.fs.Path outside = new org.apache.hadoop.fs.Path(base + "/outside");
    FileSystem fs = dfs.getFileSystem();
    fs.mkdirs(outside);
    try (Store store = HadoopStoreOpener.open(location, MiniDfs.clientConf(dfs), Map.of("localCacheDir", localCache.toString()))) {
      MemoizedFn1<Integer, Integer> f = Memory.builder(store).verbose(0).build().cache(HdfsSymlinkTest::twice);
      assertThat(f.apply(1)).isEqualTo(2);
      org.apache.hadoop.fs.Path folder = null;
      for (FileStatus st : fs.listStatus(new org.apache.hadoop.fs.Path(base + "/cache"))) {
        if (st.getPath().getName().startsWith("io.joblib4j")) {
          folder = st.getPath();
        }
      }
      fs.delete(folder, true);
      fs.createSymlink(outside, folder, false);
      List<String> warnings = Captured.warnings(() -> {
        assertThat(f.apply(2)).isEqualTo(4);
        assertThat(f.apply(1)).isEqualTo(2);
      });
      assertThat(everything(fs, outside)).as("nothing written through the link").isEmpty();
      assertThat(warnings).isNotEmpty().allMatch(w -> w.contains("symlink"));
      String folderName = folder.getName();
      assertThat(store.list("")).noneMatch(s -> s.path().startsWith(folderName));
    }
  }

  private static List<String> everything(FileSystem fs, org.apache.hadoop.fs.Path dir) throws Exception {
    List<String> out = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
    while (it.hasNext()) {
      out.add(it.next().getPath().toString());
    }
    return out;
  }
}
