package io.joblib4j.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextTest {
  @TempDir Path dir;

  @Test
  void agesAreReadAsPeopleTypeThem() {
    assertThat(Text.parseAge("--max-age", "30d")).isEqualTo(Duration.ofDays(30));
    assertThat(Text.parseAge("--max-age", "1d12h")).isEqualTo(Duration.ofHours(36));
    assertThat(Text.parseAge("--max-age", "PT90M")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Text.parseAge("--max-age", "2w")).isEqualTo(Duration.ofDays(14));
    assertThatThrownBy(() -> Text.parseAge("--max-age", "30 days")).isInstanceOf(CliException.class)
        .hasMessageContaining("not an age").extracting(e -> ((CliException) e).exitCode()).isEqualTo(Main.USAGE);
  }

  @Test
  void sizesAreShownInBinaryUnits() {
    assertThat(Text.size(512)).isEqualTo("512B");
    assertThat(Text.size(1536)).isEqualTo("1.5K");
    assertThat(Text.size(10L << 30)).isEqualTo("10G");
    assertThat(Text.parseSize("--max-size", "10G")).isEqualTo(10L << 30);
  }

  @Test
  void hadoopSettingsComeFromHadoopConfDirThenConf() throws Exception {
    Files.writeString(dir.resolve("core-site.xml"), """
        <configuration>
          <property><name>fs.defaultFS</name><value>hdfs://from-site:8020</value></property>
          <property><name>joblib4j.test.a</name><value>site</value></property>
          <property><name>ipc.client.connect.max.retries</name><value>7</value></property>
        </configuration>
        """);
    Configuration c = HadoopSettings.configuration(Map.of("HADOOP_CONF_DIR", dir.toString()),
        List.of("joblib4j.test.a=flag", "joblib4j.test.b = x=y"));
    assertThat(c.get("fs.defaultFS")).isEqualTo("hdfs://from-site:8020");
    assertThat(c.get("joblib4j.test.a")).isEqualTo("flag");
    assertThat(c.get("joblib4j.test.b")).isEqualTo("x=y");
    assertThat(c.get("ipc.client.connect.max.retries")).as("the site's setting is kept").isEqualTo("7");
    assertThat(HadoopSettings.configuration(Map.of(), List.of()).get("ipc.client.connect.max.retries")).isEqualTo("1");
  }
}
