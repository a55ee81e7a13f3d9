package io.joblib4j.spi.support;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Folders of a fixed name in the shared temporary folder that only this user may enter: where one
 * program leaves what the next one uses (joblib4j's parked workers' sockets and class-data-sharing
 * archives, a store's machine-wide copies of remote files). Such a name is predictable, so another
 * local user could make the folder first and fill it, or make it a link: what this user then reads
 * from it is theirs. A folder is fit only if it is a folder (not a link) owned by this user with
 * {@code rwx------}; {@link #check} makes it so where it is absent and says what is wrong otherwise.
 *
 * <pre>{@code
 * Path dir = OwnerOnlyFolders.inTemp("my-store-");
 * Optional<String> problem = OwnerOnlyFolders.check(dir);
 * if (problem.isPresent()) {
 *   throw new IOException(problem.get());
 * }
 * }</pre>
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class OwnerOnlyFolders {
  /** {@code rwx------}. */
  public static final Set<PosixFilePermission> OWNER_ONLY = Set.of(PosixFilePermission.OWNER_READ,
      PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

  private OwnerOnlyFolders() {}

  /**
   * The folder {@code prefix} plus this user's name in {@code java.io.tmpdir}.
   *
   * @param prefix the start of the folder's name, e.g. {@code "joblib4j-cds-"}
   * @return the folder's path (not made)
   */
  public static Path inTemp(String prefix) {
    return Path.of(System.getProperty("java.io.tmpdir"),
        prefix + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_"));
  }

  /**
   * Makes {@code dir} {@code rwx------} if it is absent (its parent must exist), then checks it.
   * Where the file system has no POSIX owners and permissions (Windows), the folder is made and
   * taken as it is: the temporary folder there is the user's own.
   *
   * @param dir the folder
   * @return empty if {@code dir} is a folder of this user's that only this user may enter; else what
   *     is wrong with it and what to do, for an error or a warning
   * @throws IOException if it can be neither made nor read
   */
  public static Optional<String> check(Path dir) throws IOException {
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(dir);
      return Optional.empty();
    }
    try {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    } catch (FileAlreadyExistsException e) {
      // made earlier, by this user or, if something is wrong, by another: checked below
    }
    PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (a.isDirectory() && a.owner().equals(currentUser(dir.getParent())) && a.permissions().equals(OWNER_ONLY)) {
      return Optional.empty();
    }
    return Optional.of(dir + " must be a folder of this user's that only this user may enter (rwx------); it is "
        + (a.isSymbolicLink() ? "a link" : a.isDirectory() ? "a folder" : "not a folder") + " owned by "
        + a.owner() + " with " + PosixFilePermissions.toString(a.permissions())
        + ". Delete it, or set java.io.tmpdir elsewhere");
  }

  /**
   * Whether {@code dir} is a folder (not a link) that only this user may change. Only such a folder
   * may be deleted by a sweep of the temporary folder: one another user can write to could have a
   * subfolder swapped for a link mid-walk, and the walk would then delete this user's files through
   * it. Without POSIX owners (Windows): whether it is a folder.
   *
   * @param dir a path
   * @return whether it is a folder of this user's alone
   */
  public static boolean isOwnersOnly(Path dir) {
    try {
      if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS);
      }
      PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isDirectory() && a.permissions().equals(OWNER_ONLY) && a.owner().equals(currentUser(dir.getParent()));
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * This process's user: the owner of {@code /proc/self} where there is one (Linux), else the owner
   * of a file made to ask. Not the file by default: making a temporary file seeds a {@code
   * SecureRandom}, some 15 ms of a fresh program's CPU on its first parallel call. (A process that
   * made itself non-dumpable has {@code /proc/self} owned by root: its folders are then refused
   * rather than trusted wrongly.)
   */
  private static UserPrincipal currentUser(Path scratch) throws IOException {
    Path self = Path.of("/proc/self");
    if (Files.isDirectory(self)) {
      return Files.getOwner(self);
    }
    Path probe = Files.createTempFile(scratch, "joblib4j-owner-", "");
    try {
      return Files.getOwner(probe);
    } finally {
      Files.deleteIfExists(probe);
    }
  }
}
