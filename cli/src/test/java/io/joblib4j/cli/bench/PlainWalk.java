package io.joblib4j.cli.bench;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The local baseline of {@link CliListingBenchmark}: a plain recursive listing of a folder in a JVM
 * of its own, each file's attributes read ({@code Files.walkFileTree}), sizes summed and printed.
 */
public final class PlainWalk {
  private PlainWalk() {}

  public static void main(String[] args) throws IOException {
    long[] total = new long[2];
    Files.walkFileTree(Path.of(args[0]), new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        total[0] += attrs.size();
        total[1]++;
        return FileVisitResult.CONTINUE;
      }
    });
    System.out.println(total[0] + " bytes in " + total[1] + " files");
  }
}
