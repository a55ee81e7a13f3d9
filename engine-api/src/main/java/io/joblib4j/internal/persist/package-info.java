/**
 * The joblib4j container format (see FORMAT.md at the repository root): the record writer and
 * reader, the data-only value codec, the class allow-list with its Kryo and Java-serialization
 * fallbacks, and the built-in compressors (with joblib4j's own strict gzip and zstd readers, which
 * know where a compressed stream ends). Not API.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.persist;

import org.apiguardian.api.API;
