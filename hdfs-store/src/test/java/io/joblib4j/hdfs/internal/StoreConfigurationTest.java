package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The client settings a store's own FileSystem gets, and that the user's own settings win. */
class StoreConfigurationTest {
  private static final String FIRST_WAIT = "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
  private static final String TRIES = "dfs.client.block.write.locateFollowingBlock.retries";

  @Test
  void closingAFileAsksTheNameNodeAgainAfter20MsNot400WithTheSamePatience() {
    Configuration hadoops = new Configuration();
    assertThat(hadoops.getInt(FIRST_WAIT, 400)).isEqualTo(400);
    Configuration store = Configurations.forStore(hadoops, Map.of());
    int first = store.getInt(FIRST_WAIT, -1);
    int tries = store.getInt(TRIES, -1);
    assertThat(first).isEqualTo(20);
    // a close gives up after first * (2^tries - 1): about Hadoop's 400 ms * (2^5 - 1) = 12.4 s
    assertThat(first * ((1L << tries) - 1)).isBetween(8_000L, 13_000L);
  }

  @Test
  void theUsersOwnSettingsAndStoreOptionsWin() {
    Configuration mine = new Configuration();
    mine.set(FIRST_WAIT, "100");
    assertThat(Configurations.forStore(mine, Map.of()).get(FIRST_WAIT)).isEqualTo("100");
    assertThat(Configurations.forStore(new Configuration(), Map.of(TRIES, "3")).get(TRIES)).isEqualTo("3");
  }
}
