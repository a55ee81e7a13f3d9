package io.joblib4j.testing;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

/**
 * Latches that work across JVMs on one machine: tasks running in child JVMs or Spark executors
 * wait at a {@link Gate} until the test opens it, and tell the test they got somewhere, over a
 * loopback connection to this test JVM. Tests then order events by what happened, never by how
 * long they slept.
 *
 * <pre>{@code
 * try (Rendezvous r = Rendezvous.open()) {
 *   Gate gate = r.gate("first");                  // serializable: capture it in a task
 *   ... delayed(() -> { gate.arrive(); gate.pass(); return 1; }) ...
 *   r.awaitArrivals("first", 1);                  // the task runs now
 *   r.openGate("first");                          // and may go on
 * }
 * }</pre>
 *
 * <p>A task waiting at a closed gate that stops waiting — its thread was interrupted, its JVM was
 * killed — is counted as having <em>abandoned</em> the gate ({@link #awaitAbandoned}): that is how a
 * test sees that cancellation reached a running task, whichever backend runs it.
 */
public final class Rendezvous implements AutoCloseable {
  /** How long a test waits for tasks by default: generous, for a loaded machine. */
  public static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final byte ARRIVE = 1;
  private static final byte WAIT = 2;
  private static final byte OPEN = 3;

  private final ServerSocket server;
  private final Map<String, Point> points = new ConcurrentHashMap<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private volatile boolean closed;

  private Rendezvous() throws IOException {
    server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::acceptLoop, "rendezvous-accept");
    t.setDaemon(true);
    t.start();
  }

  /** A rendezvous listening on a free loopback port. */
  public static Rendezvous open() {
    try {
      return new Rendezvous();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The gate called {@code name}, closed until {@link #openGate}; a handle tasks can carry. */
  public Gate gate(String name) {
    point(name);
    return new Gate(server.getInetAddress().getHostAddress(), server.getLocalPort(), name);
  }

  /** Lets every task waiting at gate {@code name} go on; later ones pass at once. */
  public void openGate(String name) {
    Point p = point(name);
    List<DataOutputStream> waiting;
    lock.lock();
    try {
      p.open = true;
      waiting = new ArrayList<>(p.waiting);
      p.waiting.clear();
    } finally {
      lock.unlock();
    }
    waiting.forEach(Rendezvous::release);
  }

  /** How many tasks arrived at {@code name}. */
  public int arrivals(String name) {
    lock.lock();
    try {
      return point(name).arrivals;
    } finally {
      lock.unlock();
    }
  }

  /** How many tasks stopped waiting at {@code name} while it was closed. */
  public int abandoned(String name) {
    lock.lock();
    try {
      return point(name).abandoned;
    } finally {
      lock.unlock();
    }
  }

  /** What the tasks that arrived at {@code name} said ({@link Gate#arrive(String)}), in order of arrival. */
  public List<String> notes(String name) {
    lock.lock();
    try {
      return List.copyOf(point(name).notes);
    } finally {
      lock.unlock();
    }
  }

  /** Waits for the first task to arrive at {@code name} and returns what it said. */
  public String awaitNote(String name) {
    awaitArrivals(name, 1);
    return notes(name).get(0);
  }

  /** Waits until at least {@code n} tasks arrived at {@code name}. */
  public void awaitArrivals(String name, int n) {
    await(name, "arrivals", a -> a >= n, p -> p.arrivals);
  }

  /** Waits until at least {@code n} tasks abandoned gate {@code name}: cancellation reached them. */
  public void awaitAbandoned(String name, int n) {
    await(name, "tasks that stopped waiting", a -> a >= n, p -> p.abandoned);
  }

  private void await(String name, String what, IntPredicate done, java.util.function.ToIntFunction<Point> count) {
    Point p = point(name);
    long left = PATIENCE.toNanos();
    lock.lock();
    try {
      while (!done.test(count.applyAsInt(p))) {
        if (left <= 0) {
          throw new AssertionError("gave up after " + PATIENCE + " waiting at \"" + name + "\": " + what + " "
              + count.applyAsInt(p));
        }
        try {
          left = changed.awaitNanos(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted", e);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private Point point(String name) {
    return points.computeIfAbsent(name, k -> new Point());
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // closing is all we wanted
    }
  }

  private void acceptLoop() {
    while (!closed) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        return;
      }
      Thread t = new Thread(() -> serve(s), "rendezvous-" + s.getPort());
      t.setDaemon(true);
      t.start();
    }
  }

  private void serve(Socket s) {
    try (s) {
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      byte kind = in.readByte();
      Point p = point(in.readUTF());
      if (kind == ARRIVE) {
        String note = in.readUTF();
        lock.lock();
        try {
          p.arrivals++;
          p.notes.add(note);
          changed.signalAll();
        } finally {
          lock.unlock();
        }
        out.writeByte(OPEN); // the arrival is counted before the task goes on
        out.flush();
        return;
      }
      boolean open;
      lock.lock();
      try {
        open = p.open;
        if (!open) {
          p.waiting.add(out);
        }
      } finally {
        lock.unlock();
      }
      if (open) {
        release(out);
      }
      int end; // the task hangs up once released, or when it stops waiting
      try {
        end = in.read();
      } catch (IOException e) {
        end = -1; // its JVM died
      }
      lock.lock();
      try {
        if (p.waiting.remove(out) && end < 0) {
          p.abandoned++;
          changed.signalAll();
        }
      } finally {
        lock.unlock();
      }
    } catch (IOException e) {
      // the task's JVM went away mid-handshake; nothing to count
    }
  }

  private static void release(DataOutputStream out) {
    try {
      synchronized (out) {
        out.writeByte(OPEN);
        out.flush();
      }
    } catch (IOException e) {
      // the task stopped waiting; it is counted as such
    }
  }

  private static final class Point {
    int arrivals;
    int abandoned;
    boolean open;
    final List<String> notes = new ArrayList<>();
    final List<DataOutputStream> waiting = new ArrayList<>();
  }

  /** A gate of a {@link Rendezvous}, used inside tasks, in any JVM of this machine. */
  public record Gate(String host, int port, String name) implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    /** Tells the test this task got here, and goes on. */
    public void arrive() {
      arrive("");
    }

    /** Tells the test this task got here, with a note (e.g. its worker's pid), and goes on. */
    public void arrive(String note) {
      try (Socket s = new Socket(host, port)) {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeByte(ARRIVE);
        out.writeUTF(name);
        out.writeUTF(note);
        out.flush();
        new DataInputStream(s.getInputStream()).readByte(); // counted
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("the test's rendezvous is gone", e);
      }
    }

    /**
     * Waits until the test opens this gate. Interruptible: a cancelled task stops waiting, and the
     * test sees it ({@link Rendezvous#awaitAbandoned}).
     */
    public void pass() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      try (Socket s = new Socket(host, port)) {
        s.setSoTimeout(50); // to notice an interrupt: blocking socket reads ignore it
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeByte(WAIT);
        out.writeUTF(name);
        out.flush();
        DataInputStream in = new DataInputStream(s.getInputStream());
        while (true) {
          try {
            in.readByte();
            return;
          } catch (SocketTimeoutException e) {
            if (Thread.interrupted()) {
              throw new InterruptedException("stopped waiting at gate " + name);
            }
            if (System.nanoTime() > deadline) {
              throw new IllegalStateException("gate " + name + " stayed closed for 5 minutes");
            }
          }
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("the test's rendezvous is gone", e);
      }
    }
  }
}
