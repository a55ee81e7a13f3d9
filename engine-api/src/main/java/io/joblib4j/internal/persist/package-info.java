/**
 * The joblib4j container format (see FORMAT.md at the repository root): the record writer and
 * reader, the data-only value codec, the class allow-list with its Kryo and Java-serialization
 * fallbacks, and the built-in compressors. Not API.
 */
package io.joblib4j.internal.persist;
