package io.joblib4j.spi;

import java.time.Instant;
import org.apiguardian.api.API;

/**
 * A file or directory as {@link Store#list} reports it.
 *
 * @param path relative to the store's root
 * @param directory whether it is a directory
 * @param size the file's size in bytes (0 for directories)
 * @param lastModified when it was last written, or for an entry directory last {@link Store#touch touched}
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public record StoreFile(String path, boolean directory, long size, Instant lastModified) {}
