package io.joblib4j.internal.processes;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * A parked worker's guard over the folders of its class path (an IDE's or {@code mvn exec}'s
 * {@code target/classes}): the next program names a folder only by its path ({@link WarmWorkers}),
 * so the worker itself makes sure its classes are still the folder's. It watches every folder
 * under them for changes first, then checks that no file there was modified since this JVM
 * started; from then on, any change ends its wait. Workers on jars only need no guard.
 */
final class FolderGuard {
  private final WatchService watch;
  private volatile boolean changed;
  private volatile Runnable onChange = () -> {};

  private FolderGuard(WatchService watch) {
    this.watch = watch;
  }

  /** A guard over this JVM's class path folders, watching; null if a file changed since the JVM started or watching failed. */
  static FolderGuard start() {
    List<Path> folders = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (!entry.isEmpty() && Files.isDirectory(Path.of(entry))) {
        folders.add(Path.of(entry));
      }
    }
    if (folders.isEmpty()) {
      return new FolderGuard(null);
    }
    long started = jvmStart();
    if (started < 0) {
      return null;
    }
    WatchService watch = null;
    try {
      watch = FileSystems.getDefault().newWatchService();
      boolean[] newer = new boolean[1];
      for (Path folder : folders) {
        WatchService w = watch;
        Files.walkFileTree(folder, new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) throws IOException {
            // watched before its files are checked: a change in between is seen by one or the other
            dir.register(w, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                StandardWatchEventKinds.ENTRY_MODIFY);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
            if (a.lastModifiedTime().toMillis() > started) {
              newer[0] = true;
              return FileVisitResult.TERMINATE;
            }
            return FileVisitResult.CONTINUE;
          }
        });
        if (newer[0]) {
          watch.close();
          return null;
        }
      }
      FolderGuard guard = new FolderGuard(watch);
      Thread t = new Thread(guard::awaitChange, "joblib4j-worker-folder-guard");
      t.setDaemon(true);
      t.start();
      return guard;
    } catch (IOException | RuntimeException e) {
      if (watch != null) {
        ChannelStreams.closeQuietly(watch);
      }
      return null; // too many folders to watch, say: not kept warm
    }
  }

  /**
   * When this JVM started, to the millisecond, from the JVM itself: the process start time Linux
   * gives ({@code ProcessHandle.Info}) is only as exact as its boot time, a whole second, which
   * would mistake a class written just before the worker started for a change. The management
   * classes cost some 40 ms, paid as the worker parks, not on a call's path.
   */
  private static long jvmStart() {
    try {
      return java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    } catch (RuntimeException | LinkageError e) {
      return -1; // a runtime without java.management: not kept warm on a folder class path
    }
  }

  private void awaitChange() {
    try {
      watch.take();
      changed = true;
      onChange.run();
    } catch (InterruptedException | java.nio.file.ClosedWatchServiceException e) {
      // the JVM is ending
    }
  }

  /** Runs {@code action} at the first change (from the guard's thread). */
  void onChange(Runnable action) {
    this.onChange = action;
    if (changed) {
      action.run();
    }
  }

  boolean changed() {
    return changed;
  }
}
