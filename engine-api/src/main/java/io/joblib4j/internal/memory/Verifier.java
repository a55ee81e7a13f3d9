package io.joblib4j.internal.memory;

import io.joblib4j.CacheMetadata;
import io.joblib4j.VerifyReport;
import io.joblib4j.VerifyReport.Kind;
import io.joblib4j.VerifyReport.Problem;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * {@code Memory.verify}: reads every entry's output and checks its size and CRC32C against its
 * metadata.json, lists what in the functions' folders Memory did not write, and the temporaries dead
 * writers left; with {@code repair}, deletes all of them. Only the functions' folders are looked
 * into: other files at the location (a ChunkedArray, the user's) are not Memory's to judge.
 */
public final class Verifier {
  /** Younger temporaries may belong to a writer at work. */
  static final Duration ABANDONED_AFTER = Duration.ofHours(1);

  private Verifier() {}

  public static VerifyReport verify(CacheSettings settings, boolean repair) throws IOException {
    Store store = settings.store();
    List<Problem> problems = new ArrayList<>();
    Map<String, List<String>> entryFiles = new LinkedHashMap<>();
    Set<String> foreign = new LinkedHashSet<>();
    for (StoreFile f : store.list("")) {
      String[] s = f.path().split("/");
      if (!Layout.isFunctionFolderName(s[0]) || s.length == 1) {
        continue;
      }
      if (s.length == 2) {
        if (f.directory() && Layout.isKey(s[1])) {
          entryFiles.computeIfAbsent(f.path(), k -> new ArrayList<>());
        } else if (!(s[1].equals(Layout.FUNCTION_FILE) && !f.directory())) {
          foreign.add(f.path());
        }
        continue;
      }
      String entry = s[0] + "/" + s[1];
      if (!Layout.isKey(s[1])) {
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
      String why = check(store, e.getKey(), e.getValue());
      if (why != null) {
        damaged.add(e.getKey());
        problems.add(new Problem(Kind.DAMAGED_ENTRY, e.getKey(), why));
      }
    }
    for (String f : foreign) {
      problems.add(new Problem(Kind.FOREIGN_FILE, f, "not written by Memory"));
    }
    List<StoreFile> temporaries = store.temporaries(ABANDONED_AFTER);
    for (StoreFile t : temporaries) {
      problems.add(new Problem(Kind.ABANDONED_TEMPORARY, t.path(), "a temporary of a writer that died (last written "
          + t.lastModified() + ")"));
    }
    if (repair) {
      for (String d : damaged) {
        store.delete(d);
      }
      for (String f : foreign) {
        store.delete(f);
      }
      if (!temporaries.isEmpty()) {
        store.sweep(ABANDONED_AFTER);
      }
      LimitKeeper.forget(settings.location());
    }
    return new VerifyReport(entryFiles.size(), problems, repair);
  }

  /** What is wrong with an entry, or null if nothing is. */
  private static String check(Store store, String entry, List<String> files) {
    if (!files.contains(Layout.METADATA_FILE)) {
      return "no metadata.json";
    }
    if (!files.contains(Layout.OUTPUT_FILE)) {
      return "no output.jl4j";
    }
    MetadataJson.Read r = Catalog.readMetadata(store, entry);
    if (r == null) {
      return "metadata.json does not parse";
    }
    CacheMetadata m = r.metadata();
    if (!m.key().equals(entry.substring(entry.indexOf('/') + 1))) {
      return "metadata.json names the key " + m.key();
    }
    try {
      Optional<InputStream> in = store.open(Layout.output(entry));
      if (in.isEmpty()) {
        return "output.jl4j vanished";
      }
      CRC32C crc = new CRC32C();
      long size = 0;
      try (InputStream s = in.get()) {
        byte[] buf = new byte[1 << 16];
        for (int n; (n = s.read(buf)) > 0; ) {
          crc.update(buf, 0, n);
          size += n;
        }
      }
      if (m.outputBytes() >= 0 && size != m.outputBytes()) {
        return "output.jl4j has " + size + " bytes, metadata.json records " + m.outputBytes();
      }
      String hex = String.format("%08x", crc.getValue());
      if (!m.outputCrc32c().isEmpty() && !m.outputCrc32c().equalsIgnoreCase(hex)) {
        return "output.jl4j's CRC32C is " + hex + ", metadata.json records " + m.outputCrc32c();
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return "output.jl4j cannot be read: " + e.getMessage();
    }
  }
}
