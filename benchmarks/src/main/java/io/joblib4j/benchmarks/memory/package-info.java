/**
 * Memory's small local hit counted in system calls (issue 40): {@link HitLoop} does N hits (or N
 * plain reads of the entry's output file) in a JVM of its own, and {@link SyscallTable} runs it
 * under {@code strace -c -f} with N and with none, and prints what the N add, per operation.
 */
package io.joblib4j.benchmarks.memory;
