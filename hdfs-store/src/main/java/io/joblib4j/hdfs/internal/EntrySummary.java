package io.joblib4j.hdfs.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Marker mode: an empty object beside an entry's manifest whose <i>name</i> says what a listing shows
 * of the entry (its files' names and sizes), so that {@code entries()} and {@code ls} answer from the
 * LIST alone instead of a GET per manifest. Name: {@code .jl4j-s.<MD5 of the manifest>.<names and
 * sizes, base64url>}.
 *
 * <p>It is written after the manifest, and trusted only when the MD5 in its name equals the ETag the
 * listing gives the manifest (S3's ETag of a single PUT is the MD5 of its bytes): a summary left by a
 * deleted, republished or losing publication names another manifest and is ignored, as it is on
 * stores whose ETag is not an MD5 (SSE-KMS, ABFS, GCS). Whenever no summary matches, for instance
 * for entries written before summaries existed, or when the writer died between the two PUTs, the
 * listing reads the manifest as before. A summary never decides what a reader reads: values are
 * read through the manifest only.
 */
final class EntrySummary {
  static final String PREFIX = Names.RESERVED_PREFIX + "s.";
  /**
   * Names that fit in 255 bytes, the longest file name of the file systems under S3-compatible
   * servers (S3Proxy's filesystem backend, MinIO): entries with longer names or many files are
   * listed by their manifest.
   */
  private static final int MAX_PAYLOAD = 200;

  private EntrySummary() {}

  /** The summary's object name for a manifest's bytes and its files' sizes, or null if it would be too long. */
  static String name(byte[] manifest, Map<String, Long> sizes) {
    if (sizes.isEmpty()) {
      return null;
    }
    StringBuilder payload = new StringBuilder();
    for (Map.Entry<String, Long> e : sizes.entrySet()) {
      if (e.getKey().isEmpty() || e.getKey().contains("/")) {
        return null;
      }
      payload.append(payload.length() == 0 ? "" : "/").append(e.getValue()).append('/').append(e.getKey());
    }
    String encoded = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(payload.toString().getBytes(StandardCharsets.UTF_8));
    return encoded.length() > MAX_PAYLOAD ? null : PREFIX + md5Hex(manifest) + "." + encoded;
  }

  /**
   * The file sizes a summary object's name gives, if it describes the manifest whose ETag is {@code
   * manifestEtag}; null otherwise (another manifest's summary, not a summary, or unreadable).
   */
  static Map<String, Long> sizesFor(String objectName, String manifestEtag) {
    if (manifestEtag == null || !objectName.startsWith(PREFIX)) {
      return null;
    }
    String rest = objectName.substring(PREFIX.length());
    int dot = rest.indexOf('.');
    if (dot != 32 || !rest.substring(0, dot).equals(unquoted(manifestEtag))) {
      return null;
    }
    try {
      String[] parts = new String(Base64.getUrlDecoder().decode(rest.substring(dot + 1)), StandardCharsets.UTF_8)
          .split("/", -1);
      if (parts.length % 2 != 0) {
        return null;
      }
      Map<String, Long> sizes = new LinkedHashMap<>();
      for (int i = 0; i < parts.length; i += 2) {
        sizes.put(parts[i + 1], Long.parseLong(parts[i]));
      }
      return sizes;
    } catch (IllegalArgumentException e) {
      return null; // not one this store wrote
    }
  }

  private static String unquoted(String etag) {
    String e = etag.startsWith("\"") && etag.endsWith("\"") && etag.length() > 1 ? etag.substring(1, etag.length() - 1)
        : etag;
    return e.toLowerCase(Locale.ROOT);
  }

  private static String md5Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has MD5", e);
    }
  }
}
