package io.joblib4j.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The tap itself: what the channel tests read from it must be each connection's own bytes. */
@Timeout(30)
class WireTapTest {

  @Test
  void twoConnectionsSendingAtOnceAreRecordedApartNotInterleaved() throws Exception {
    try (WireTap tap = new WireTap(); ServerSocket driver = new ServerSocket()) {
      driver.bind(new InetSocketAddress(InetAddress.getByName(WireTap.DRIVER_HOST), tap.port()));
      List<Socket> accepted = new ArrayList<>();
      try (Socket first = new Socket(WireTap.TAPPED_HOST, tap.port());
          Socket second = new Socket(WireTap.TAPPED_HOST, tap.port())) {
        accepted.add(driver.accept());
        accepted.add(driver.accept());
        OutputStream one = first.getOutputStream();
        OutputStream two = second.getOutputStream();
        sendAndWait(one, "AAA", tap, 3);
        sendAndWait(two, "BBB", tap, 6);
        sendAndWait(one, "aaa", tap, 9);
      } finally {
        for (Socket s : accepted) {
          s.close();
        }
      }
      assertThat(tap.connections()).isEqualTo(2);
      assertThat(tap.sentToDriverByConnection()).extracting(b -> new String(b, StandardCharsets.US_ASCII))
          .containsExactly("AAAaaa", "BBB");
      assertThat(new String(tap.sentToDriver(), StandardCharsets.US_ASCII)).isEqualTo("AAAaaaBBB");
    }
  }

  /** Sends, then waits until the driver side has read everything sent so far, so the writes happen in this order. */
  private static void sendAndWait(OutputStream out, String text, WireTap tap, int total) throws Exception {
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    while (tap.sentToDriver().length < total) {
      Thread.sleep(5);
    }
  }
}
