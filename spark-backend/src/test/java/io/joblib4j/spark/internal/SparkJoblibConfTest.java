package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spi.support.Warnings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The spark backend's settings: {@code spark.joblib4j.*}, the old {@code spark.joblib.*} names with
 * a deprecation warning given once, a warning naming the closest name for a mistyped one, and a
 * clear error for each bad value. (Warnings are given once per JVM and key, so each test uses keys
 * of its own.)
 */
class SparkJoblibConfTest {
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private Runnable removeHook;

  @BeforeEach
  void hook() {
    removeHook = Warnings.addHook((source, message) -> warnings.add(message));
  }

  @AfterEach
  void unhook() {
    removeHook.run();
  }

  private static SparkConf conf() {
    return new SparkConf(false).set("spark.driver.host", "10.0.0.5");
  }

  @Test
  void defaultsFollowSparksOwnSettings() {
    SparkJoblibConf c = SparkJoblibConf.from(conf().set("spark.driver.maxResultSize", "2g"), Map.of());
    assertThat(c.channel()).isEqualTo(ChannelMode.AUTO);
    assertThat(c.driverHost()).isEqualTo("10.0.0.5");
    assertThat(c.bindAddress()).isEqualTo("10.0.0.5");
    assertThat(c.ports()).isEqualTo(PortRange.ANY);
    assertThat(c.connectTimeoutMillis()).isEqualTo(10_000);
    assertThat(c.encrypt()).isFalse();
    assertThat(c.maxResultBytes()).isEqualTo(2L << 30);
  }

  @Test
  void theNewNamesAreReadAndBackendOptionsWinOverThem() {
    SparkConf conf = conf().set("spark.joblib4j.channel", "job").set("spark.joblib4j.driver.port", "40000-40100")
        .set("spark.joblib4j.driver.connectTimeout", "3s").set("spark.joblib4j.maxResultSize", "64m");
    SparkJoblibConf c = SparkJoblibConf.from(conf, Map.of("driver.host", "gateway", "spark.joblib4j.channel", "driver"));
    assertThat(c.channel()).isEqualTo(ChannelMode.DRIVER);
    assertThat(c.driverHost()).isEqualTo("gateway");
    assertThat(c.ports()).isEqualTo(new PortRange(40000, 40100));
    assertThat(c.connectTimeoutMillis()).isEqualTo(3000);
    assertThat(c.maxResultBytes()).isEqualTo(64L << 20);
    assertThat(warnings).isEmpty();
  }

  @Test
  void anOldNameStillWorksWithADeprecationWarningGivenOnce() {
    SparkConf conf = conf().set("spark.joblib.driver.bindAddress", "0.0.0.0");
    assertThat(SparkJoblibConf.from(conf, Map.of()).bindAddress()).isEqualTo("0.0.0.0");
    assertThat(SparkJoblibConf.from(conf, Map.of()).bindAddress()).isEqualTo("0.0.0.0");
    assertThat(warnings).hasSize(1).first().asString()
        .contains("spark.joblib.driver.bindAddress is deprecated")
        .contains("spark.joblib4j.driver.bindAddress");
    // the new name wins where both are set
    conf.set("spark.joblib4j.driver.bindAddress", "127.0.0.1");
    assertThat(SparkJoblibConf.from(conf, Map.of()).bindAddress()).isEqualTo("127.0.0.1");
  }

  @Test
  void anUnknownNameIsWarnedAboutOnceWithTheClosestKnownOne() {
    SparkConf conf = conf().set("spark.joblib4j.driver.prot", "40000");
    SparkJoblibConf.from(conf, Map.of());
    SparkJoblibConf.from(conf, Map.of());
    assertThat(warnings).hasSize(1).first().asString()
        .contains("unknown Spark setting spark.joblib4j.driver.prot")
        .contains("did you mean spark.joblib4j.driver.port?");
  }

  @Test
  void anUnknownBackendOptionIsRefusedNamingTheClosestKnownOne() {
    assertThatThrownBy(() -> SparkJoblibConf.from(conf(), Map.of("connectTimeout", "1s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option \"connectTimeout\"")
        .hasMessageContaining("did you mean \"driver.connectTimeout\"?");
    assertThat(SparkJoblibConf.from(conf(), Map.of("spark.joblib.driver.connectTimeout", "1s")).connectTimeoutMillis())
        .isEqualTo(1000);
    assertThat(warnings).anyMatch(w -> w.contains("spark.joblib.driver.connectTimeout is deprecated"));
  }

  @Test
  void badValuesAreRefusedNamingTheSettingAndWhatItTakes() {
    assertThatThrownBy(() -> SparkJoblibConf.from(conf(), Map.of("channel", "socket")))
        .hasMessageContaining("spark.joblib4j.channel must be auto, driver or job, not \"socket\"");
    assertThatThrownBy(() -> SparkJoblibConf.from(conf(), Map.of("driver.port", "40100-40000")))
        .hasMessageContaining("spark.joblib4j.driver.port").hasMessageContaining("40000-40100");
    assertThatThrownBy(() -> SparkJoblibConf.from(conf(), Map.of("driver.port", "70000")))
        .hasMessageContaining("between 0 and 65535");
    assertThatThrownBy(() -> SparkJoblibConf.from(conf(), Map.of("driver.port", "x")))
        .hasMessageContaining("spark.joblib4j.driver.port must be a port number");
    assertThatThrownBy(() -> SparkJoblibConf.from(conf(), Map.of("driver.connectTimeout", "soon")))
        .hasMessageContaining("spark.joblib4j.driver.connectTimeout must be a duration such as 10s");
    assertThatThrownBy(() -> SparkJoblibConf.from(conf(), Map.of("driver.encryption", "never")))
        .hasMessageContaining("spark.joblib4j.driver.encryption must be auto").hasMessageContaining("or always");
  }

  @Test
  void aSinglePortExtendsBySparksPortRetriesAsSparksOwnPortsDo() {
    assertThat(SparkJoblibConf.from(conf(), Map.of("driver.port", 40000)).ports()).isEqualTo(new PortRange(40000, 40016));
    assertThat(SparkJoblibConf.from(conf().set("spark.port.maxRetries", "3"), Map.of("driver.port", 40000)).ports())
        .isEqualTo(new PortRange(40000, 40003));
    assertThat(SparkJoblibConf.from(conf(), Map.of("driver.port", " 40000 - 40002 ")).ports())
        .isEqualTo(new PortRange(40000, 40002));
  }

  @Test
  void theChannelIsEncryptedWhenSparkEncryptsItsOwnRpcOrWhenAskedTo() {
    assertThat(SparkJoblibConf.from(conf().set("spark.network.crypto.enabled", "true"), Map.of()).encrypt()).isTrue();
    assertThat(SparkJoblibConf.from(conf().set("spark.ssl.enabled", "true"), Map.of()).encrypt()).isTrue();
    assertThat(SparkJoblibConf.from(conf().set("spark.ssl.rpc.enabled", "true"), Map.of()).encrypt()).isTrue();
    assertThat(SparkJoblibConf.from(conf().set("spark.authenticate", "true"), Map.of()).encrypt())
        .as("authentication alone: Spark's RPC is not encrypted, nor is the channel (it is always authenticated)")
        .isFalse();
    assertThat(SparkJoblibConf.from(conf(), Map.of("driver.encryption", "always")).encrypt()).isTrue();
  }
}
