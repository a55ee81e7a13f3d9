package io.joblib4j.internal.memory;

import io.joblib4j.internal.memory.LocalTree.Step;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;

/**
 * {@link LocalStore#list}: a folder's tree, depth first, each folder listed before what it holds,
 * temporaries and links left out; one {@code fstatat} per child and one {@code openat} per folder,
 * the system calls of a plain recursive listing. The subfolders of a folder that has many (a
 * function's entries) are walked by several threads, so that a cache of 100,000 entries lists in
 * less time than one thread's walk takes; the result is the same list, in the same order.
 */
final class LocalWalk {
  /** A folder with at least this many subfolders has them walked in parallel. */
  static final int PARALLEL_FROM = 64;

  private LocalWalk() {}

  /** What is under {@code d} (at {@code rel}), {@code depth} levels deep. */
  static List<StoreFile> walk(LocalTree tree, Dir d, String rel, int depth) throws IOException {
    List<String> names = d.names();
    int n = names.size();
    StoreFile[] own = new StoreFile[n];
    BasicFileAttributes[] folders = new BasicFileAttributes[n];
    int descents = 0;
    for (int i = 0; i < n; i++) {
      String name = names.get(i);
      if (name.startsWith(LocalTree.TEMP_PREFIX)) {
        continue;
      }
      BasicFileAttributes a = d.stat(name);
      if (a == null || !(a.isDirectory() || a.isRegularFile())) {
        continue; // deleted meanwhile, or a link (to anything: never counted, never followed)
      }
      own[i] = new StoreFile(child(rel, name), a.isDirectory(), a.isDirectory() ? 0 : a.size(),
          a.lastModifiedTime().toInstant());
      if (a.isDirectory() && depth > 1) {
        folders[i] = a;
        descents++;
      }
    }
    List<StoreFile>[] below = descend(tree, d, rel, depth, names, folders, descents);
    List<StoreFile> out = new ArrayList<>(n + (below == null ? 0 : 2 * descents));
    for (int i = 0; i < n; i++) {
      if (own[i] != null) {
        out.add(own[i]);
      }
      if (below != null && below[i] != null) {
        out.addAll(below[i]);
      }
    }
    return out;
  }

  /** The trees of the subfolders marked in {@code folders}: in this thread, or in parallel when many. */
  @SuppressWarnings("unchecked")
  private static List<StoreFile>[] descend(LocalTree tree, Dir d, String rel, int depth, List<String> names,
      BasicFileAttributes[] folders, int descents) throws IOException {
    if (descents == 0) {
      return null;
    }
    List<StoreFile>[] below = new List[names.size()];
    if (descents < PARALLEL_FROM) {
      for (int i = 0; i < folders.length; i++) {
        if (folders[i] != null) {
          below[i] = subtree(tree, d, child(rel, names.get(i)), names.get(i), folders[i], depth - 1);
        }
      }
      return below;
    }
    List<Subtree> tasks = new ArrayList<>(descents);
    for (int i = 0; i < folders.length; i++) {
      if (folders[i] != null) {
        tasks.add(new Subtree(tree, d, child(rel, names.get(i)), names.get(i), folders[i], depth - 1, i));
      }
    }
    if (ForkJoinTask.inForkJoinPool()) {
      ForkJoinTask.invokeAll(tasks);
    } else {
      Threads.POOL.invoke(new RecursiveAction() {
        @Override
        protected void compute() {
          ForkJoinTask.invokeAll(tasks);
        }
      });
    }
    for (Subtree t : tasks) {
      if (t.failed != null) {
        throw t.failed;
      }
      below[t.index] = t.result;
    }
    return below;
  }

  /** The tree of the subfolder {@code name} of {@code d}: empty if it went, or was swapped for a link, since it was seen. */
  private static List<StoreFile> subtree(LocalTree tree, Dir d, String rel, String name, BasicFileAttributes listed,
      int depth) throws IOException {
    tree.hook.at(Step.LIST_OPENING, rel);
    Dir child;
    try {
      child = d.openListedDir(name, listed); // just stat'ed: no second stat per folder
    } catch (AccessDeniedException denied) {
      throw denied; // a folder this user may not read is not an empty one: say so, never pass it by
    } catch (IOException goneOrSwapped) {
      return List.of();
    }
    try {
      return walk(tree, child, rel, depth);
    } finally {
      child.close();
    }
  }

  private static String child(String rel, String name) {
    return rel.isEmpty() ? name : rel + "/" + name;
  }

  /** One subfolder's tree, as a task of the listing pool. */
  private static final class Subtree extends RecursiveAction {
    private final LocalTree tree;
    private final Dir parent;
    private final String rel;
    private final String name;
    private final BasicFileAttributes listed;
    private final int depth;
    final int index;
    List<StoreFile> result;
    IOException failed;

    Subtree(LocalTree tree, Dir parent, String rel, String name, BasicFileAttributes listed, int depth, int index) {
      this.tree = tree;
      this.parent = parent;
      this.rel = rel;
      this.name = name;
      this.listed = listed;
      this.depth = depth;
      this.index = index;
    }

    @Override
    protected void compute() {
      try {
        result = subtree(tree, parent, rel, name, listed, depth);
      } catch (IOException e) {
        failed = e;
      }
    }
  }

  /**
   * The listing threads, shared by every local store of the JVM, started on the first large listing
   * and gone after a minute idle: as many as the cores (2 to 8), since a listing is system calls on
   * cached folders, not waiting on a disk.
   */
  private static final class Threads {
    static final ForkJoinPool POOL = new ForkJoinPool(Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors())),
        pool -> {
          ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
          t.setName("joblib4j-listing-" + t.getPoolIndex());
          t.setDaemon(true);
          return t;
        }, null, false);
  }
}
