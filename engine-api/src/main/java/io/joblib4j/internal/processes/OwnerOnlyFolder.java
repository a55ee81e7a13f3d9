package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
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
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A folder of a fixed name in the shared temporary folder that only this user may enter: where
 * workers of one program leave what the next program's workers use (parked workers' sockets,
 * class-data-sharing archives, jars of class folders). Its name is predictable, so another local
 * user could make it first and fill it: an archive or a jar from there runs as this user. It is
 * taken only if it is a folder (not a link) owned by this user with {@code rwx------}; made so if
 * absent; refused with a warning otherwise.
 */
final class OwnerOnlyFolder {
  private static final LazyLogger LOG = LazyLogger.of(OwnerOnlyFolder.class);
  static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ,
      PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

  private OwnerOnlyFolder() {}

  /** The folder {@code name} plus this user's name in {@code java.io.tmpdir}. */
  static Path inTemp(String prefix) {
    return Path.of(System.getProperty("java.io.tmpdir"),
        prefix + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_"));
  }

  /**
   * {@code dir}, made {@code rwx------} if absent; empty where it is not a folder of this user's
   * that only this user may enter. Where the file system has no POSIX owners and permissions
   * (Windows), the folder is made and taken as it is: the temporary folder there is the user's own.
   *
   * @param what what the folder holds, for the warning ("class-data-sharing archives")
   * @param without what is done without it, for the warning ("workers start without them")
   */
  static Optional<Path> find(Path dir, String what, String without) {
    try {
      if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        return Optional.of(Files.createDirectories(dir));
      }
      try {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      } catch (FileAlreadyExistsException e) {
        // made earlier, by this user or, if something is wrong, by another: checked below
      }
      PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      UserPrincipal me = currentUser(dir.getParent());
      if (!a.isDirectory() || !a.owner().equals(me) || !a.permissions().equals(OWNER_ONLY)) {
        LOG.get().warn("{}: the folder for {}, {}, must be a folder of this user's that only this user may enter"
            + " (rwx------); it is {} owned by {} with {}. Delete it, or set java.io.tmpdir elsewhere",
            without, what, dir, a.isDirectory() ? "a folder" : "not a folder", a.owner(),
            PosixFilePermissions.toString(a.permissions()));
        return Optional.empty();
      }
      return Optional.of(dir);
    } catch (IOException | UnsupportedOperationException e) {
      LOG.get().debug("{}: no folder for {} at {}", without, what, dir, e);
      return Optional.empty();
    }
  }

  /**
   * Whether {@code dir} is a folder (not a link) that only this user may change, as this JVM's
   * temporary folders are made: only such a folder may be deleted by a sweep. One another user can
   * write to could have a subfolder swapped for a link mid-walk, and the walk would then delete
   * this user's files through it. Without POSIX owners (Windows): whether it is a folder.
   */
  static boolean isOwnersOnly(Path dir) {
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
   * SecureRandom}, some 15 ms of a fresh program's CPU on the first call's path. (A process that
   * made itself non-dumpable has {@code /proc/self} owned by root: its folders are then refused,
   * with the warning above, rather than trusted wrongly.)
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
