package io.joblib4j.spi.upkeep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A claim on a name that ends on its own: an entry published create-if-absent whose one file,
 * {@value #FILE}, says who holds it and until when. The next claimant takes it over once it
 * expired, so that a holder that died blocks nobody for longer than its lease. Memory's per-key
 * claims (one computation of a key at a time) and {@link LimitKeeper}'s prune lock are leases.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Lease {
  /** The file of a lease's entry. */
  public static final String FILE = "claim.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private Lease() {}

  /**
   * The record of a lease.
   *
   * @param owner who holds it (for people reading the store)
   * @param expiresAtMillis when it ends, in milliseconds since the epoch
   * @return the bytes of {@value #FILE}
   */
  public static byte[] record(String owner, long expiresAtMillis) {
    ObjectNode n = JSON.createObjectNode();
    n.put("owner", owner);
    n.put("expiresAt", expiresAtMillis);
    try {
      return JSON.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // a tree of two fields always writes
    }
  }

  /**
   * When the lease in a {@value #FILE} ends.
   *
   * @param in the file's bytes
   * @return the expiry in milliseconds since the epoch; empty if the file does not say
   * @throws IOException if it cannot be read or is not JSON
   */
  public static Optional<Long> expiry(InputStream in) throws IOException {
    JsonNode n = JSON.readTree(in);
    return n != null && n.path("expiresAt").isNumber() ? Optional.of(n.path("expiresAt").asLong()) : Optional.empty();
  }

  /**
   * Takes the lease at {@code path} for {@code leaseMillis}, taking it over if its holder's lease
   * ended.
   *
   * @param store where it lives
   * @param path the lease's entry
   * @param owner who takes it
   * @param leaseMillis for how long
   * @return whether this caller holds it now
   * @throws IOException if the store fails
   */
  public static boolean take(Store store, String path, String owner, long leaseMillis) throws IOException {
    for (int attempt = 0; attempt < 2; attempt++) {
      long expires = System.currentTimeMillis() + leaseMillis;
      if (store.publish(path, List.of(EntryFile.of(FILE, record(owner, expires)))) == Store.Publication.PUBLISHED) {
        return true;
      }
      Optional<InputStream> in = store.open(path + "/" + FILE);
      if (in.isEmpty()) {
        continue; // released this instant
      }
      Optional<Long> until;
      try (InputStream s = in.get()) {
        until = expiry(s);
      } catch (IOException e) {
        until = Optional.empty();
      }
      if (until.isPresent() && until.get() > System.currentTimeMillis()) {
        return false;
      }
      store.delete(path); // its holder died
    }
    return false;
  }
}
