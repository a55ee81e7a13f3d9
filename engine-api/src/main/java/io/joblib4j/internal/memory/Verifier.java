package io.joblib4j.internal.memory;

import io.joblib4j.CacheMetadata;
import io.joblib4j.CorruptFileException;
import io.joblib4j.VerifyReport.Kind;
import io.joblib4j.VerifyReport.Problem;
import io.joblib4j.VerifyReport;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.spi.support.IoCauses;
import io.joblib4j.spi.upkeep.Sweep;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * {@code Memory.verify}: reads every entry's output and checks its size and CRC32C against its
 * metadata.json, lists what in the functions' folders Memory did not write, the files it could not
 * read, and the temporaries dead writers left; with {@code repair}, deletes the damaged entries and
 * the temporaries. Only what is Memory's by its own record ({@link
 * io.joblib4j.spi.upkeep.Holdings}) is looked into and only that is ever deleted: foreign files are
 * reported and left, and so is an entry that could not be read (a refusal is not damage).
 */
public final class Verifier {
  private Verifier() {}

  public static VerifyReport verify(CacheSettings settings, boolean repair) throws IOException {
    Store store = settings.store();
    List<Problem> problems = new ArrayList<>();
    Map<String, List<String>> entryFiles = new LinkedHashMap<>();
    Set<String> foreign = new LinkedHashSet<>();
    List<StoreFile> listing = store.list("");
    Set<String> functionFolders = new HashSet<>();
    Set<String> entries = new HashSet<>();
    for (StoreFile f : listing) { // the records first: they say what is Memory's (Holdings)
      String[] s = f.path().split("/");
      if (f.directory() || s.length < 2 || !Layout.isFunctionFolderName(s[0])) {
        continue;
      }
      if (s.length == 2 && s[1].equals(Layout.FUNCTION_FILE)) {
        functionFolders.add(s[0]);
      } else if (s.length == 3 && Layout.isKey(s[1]) && s[2].equals(Layout.METADATA_FILE)) {
        entries.add(s[0] + "/" + s[1]);
      }
    }
    for (StoreFile f : listing) {
      String[] s = f.path().split("/");
      if (s.length == 1 || !functionFolders.contains(s[0])) {
        continue; // not inside a function's folder: the location's other files are not Memory's to judge
      }
      if (s.length == 2) {
        if (f.directory() && entries.contains(f.path())) {
          entryFiles.computeIfAbsent(f.path(), k -> new ArrayList<>());
        } else if (!(s[1].equals(Layout.FUNCTION_FILE) && !f.directory())) {
          foreign.add(f.path());
        }
        continue;
      }
      String entry = s[0] + "/" + s[1];
      if (!entries.contains(entry)) {
        continue; // under a foreign folder, reported with it
      }
      if (s.length == 3 && !f.directory() && (s[2].equals(Layout.OUTPUT_FILE) || s[2].equals(Layout.METADATA_FILE))) {
        entryFiles.computeIfAbsent(entry, k -> new ArrayList<>()).add(s[2]);
      } else if (s.length == 3) {
        foreign.add(f.path());
      }
    }
    List<String> damaged = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : entryFiles.entrySet()) {
      Problem p = check(store, e.getKey(), e.getValue());
      if (p != null) {
        problems.add(p);
        if (p.kind() == Kind.DAMAGED_ENTRY) {
          damaged.add(e.getKey());
        }
      }
    }
    for (String f : foreign) {
      problems.add(new Problem(Kind.FOREIGN_FILE, f, "not written by Memory: left as it is (delete it yourself if it is"
          + " not wanted)"));
    }
    List<StoreFile> temporaries = Sweep.abandoned(store);
    for (StoreFile t : temporaries) {
      problems.add(new Problem(Kind.ABANDONED_TEMPORARY, t.path(), "a temporary of a writer that died (last written "
          + t.lastModified() + ")"));
    }
    if (repair) {
      // only what is Memory's and proven damaged: never what is foreign, never what could not be read
      for (String d : damaged) {
        store.delete(d);
      }
      if (!temporaries.isEmpty()) {
        Sweep.temporaries(store);
      }
      MemoryLimits.forget(settings.location());
    }
    return new VerifyReport(entryFiles.size(), problems, repair);
  }

  /** What is wrong with an entry (damaged, or unreadable), or null if nothing is. */
  private static Problem check(Store store, String entry, List<String> files) {
    if (!files.contains(Layout.OUTPUT_FILE)) {
      return new Problem(Kind.DAMAGED_ENTRY, entry, "no output.jl4j");
    }
    MetadataJson.Read r;
    try {
      r = Catalog.readMetadataOrThrow(store, entry);
    } catch (CorruptFileException e) {
      return new Problem(Kind.DAMAGED_ENTRY, entry, "metadata.json: " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      return unreadable(Layout.metadata(entry), e);
    }
    if (r == null) {
      return new Problem(Kind.DAMAGED_ENTRY, entry, "metadata.json does not parse");
    }
    CacheMetadata m = r.metadata();
    if (!m.key().equals(entry.substring(entry.indexOf('/') + 1))) {
      return new Problem(Kind.DAMAGED_ENTRY, entry, "metadata.json names the key " + m.key());
    }
    CRC32C crc = new CRC32C();
    long size = 0;
    try {
      Optional<InputStream> in = store.open(Layout.output(entry));
      if (in.isEmpty()) {
        return new Problem(Kind.DAMAGED_ENTRY, entry, "output.jl4j vanished");
      }
      try (InputStream s = in.get()) {
        byte[] buf = new byte[1 << 16];
        for (int n; (n = s.read(buf)) > 0; ) {
          crc.update(buf, 0, n);
          size += n;
        }
      }
    } catch (CorruptFileException e) {
      // the store's own checksum proved the bytes wrong (an object store's manifest holds small outputs
      // with their CRC32C): damage, not a permission or an outage
      return new Problem(Kind.DAMAGED_ENTRY, entry, "output.jl4j: " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      return unreadable(Layout.output(entry), e);
    }
    if (m.outputBytes() >= 0 && size != m.outputBytes()) {
      return new Problem(Kind.DAMAGED_ENTRY, entry, "output.jl4j has " + size + " bytes, metadata.json records "
          + m.outputBytes());
    }
    String hex = String.format("%08x", crc.getValue());
    if (!m.outputCrc32c().isEmpty() && !m.outputCrc32c().equalsIgnoreCase(hex)) {
      return new Problem(Kind.DAMAGED_ENTRY, entry, "output.jl4j's CRC32C is " + hex + ", metadata.json records "
          + m.outputCrc32c());
    }
    return null;
  }

  /** A file that could not be read: not proof of damage, so never repaired. */
  private static Problem unreadable(String path, Exception e) {
    return new Problem(Kind.UNREADABLE, path, IoCauses.describe(e) + ": left as it is");
  }
}
