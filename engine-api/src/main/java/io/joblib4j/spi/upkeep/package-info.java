/**
 * The cache upkeep that {@code Memory}, the stage cache and the {@code joblib4j} command share, so
 * that each question has one answer in one place:
 *
 * <ul>
 *   <li>{@link io.joblib4j.spi.upkeep.Holdings}: what a location holds that is joblib4j's. A path
 *       counts only when its own record identifies it (a function's {@code function.json}, an
 *       entry's {@code metadata.json}, a stage entry's {@code entry.json}, the cache's own {@code
 *       .gitignore}), never by the shape of its name alone. Whatever else is there is the user's: it
 *       is reported, never deleted or written.
 *   <li>{@link io.joblib4j.spi.upkeep.PrunePlanner}: which entries a prune deletes, least recently
 *       used first, from {@link io.joblib4j.CacheLimits}. A dry run is the plan the real run carries
 *       out.
 *   <li>{@link io.joblib4j.spi.upkeep.LimitKeeper}: the limits a cache keeps after every store, with
 *       the bound it promises whatever the scheduler does; {@link io.joblib4j.spi.upkeep.Lease}: the
 *       claims and locks that end on their own when their holder dies.
 *   <li>{@link io.joblib4j.spi.upkeep.Sweep}: when a temporary is a dead writer's, and its removal.
 *   <li>{@link io.joblib4j.spi.upkeep.KeyParts}: a key's named parts and the one diff behind every
 *       {@code explain}.
 * </ul>
 *
 * Nothing here uses joblib4j's internals or links Spark or Hadoop: it speaks {@link
 * io.joblib4j.spi.Store} paths.
 */
package io.joblib4j.spi.upkeep;
