package io.joblib4j.internal.processes;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/**
 * Forty hot methods, each a few tens of milliseconds of C2's time, for {@link WorkerCdsIT}: run one after another in a worker's background
 * thread they keep its JIT compilers busy for a second or two, so that the recording worker's archive
 * is dumped while compilations are queued; and a way to ask the JVM which of them it compiled.
 */
public final class HotMethods {
  static final int COUNT = 40;

  private HotMethods() {}

  static long m0(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 31 + (i ^ (x >>> 1));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 3;
        case 1 -> x >>> 8;
        case 2 -> x * 13;
        case 3 -> x + 18;
        case 4 -> x ^ 23;
        case 5 -> x - 28;
        case 6 -> x | 4;
        case 7 -> x & 9;
        default -> ~x;
      };
    }
    return x;
  }

  static long m1(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 33 + (i ^ (x >>> 2));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 10;
        case 1 -> x >>> 15;
        case 2 -> x * 20;
        case 3 -> x + 25;
        case 4 -> x ^ 30;
        case 5 -> x - 6;
        case 6 -> x | 11;
        case 7 -> x & 16;
        default -> ~x;
      };
    }
    return x;
  }

  static long m2(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 35 + (i ^ (x >>> 3));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 17;
        case 1 -> x >>> 22;
        case 2 -> x * 27;
        case 3 -> x + 3;
        case 4 -> x ^ 8;
        case 5 -> x - 13;
        case 6 -> x | 18;
        case 7 -> x & 23;
        default -> ~x;
      };
    }
    return x;
  }

  static long m3(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 37 + (i ^ (x >>> 4));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 24;
        case 1 -> x >>> 29;
        case 2 -> x * 5;
        case 3 -> x + 10;
        case 4 -> x ^ 15;
        case 5 -> x - 20;
        case 6 -> x | 25;
        case 7 -> x & 30;
        default -> ~x;
      };
    }
    return x;
  }

  static long m4(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 39 + (i ^ (x >>> 5));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 31;
        case 1 -> x >>> 7;
        case 2 -> x * 12;
        case 3 -> x + 17;
        case 4 -> x ^ 22;
        case 5 -> x - 27;
        case 6 -> x | 3;
        case 7 -> x & 8;
        default -> ~x;
      };
    }
    return x;
  }

  static long m5(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 41 + (i ^ (x >>> 6));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 9;
        case 1 -> x >>> 14;
        case 2 -> x * 19;
        case 3 -> x + 24;
        case 4 -> x ^ 29;
        case 5 -> x - 5;
        case 6 -> x | 10;
        case 7 -> x & 15;
        default -> ~x;
      };
    }
    return x;
  }

  static long m6(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 43 + (i ^ (x >>> 7));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 16;
        case 1 -> x >>> 21;
        case 2 -> x * 26;
        case 3 -> x + 31;
        case 4 -> x ^ 7;
        case 5 -> x - 12;
        case 6 -> x | 17;
        case 7 -> x & 22;
        default -> ~x;
      };
    }
    return x;
  }

  static long m7(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 45 + (i ^ (x >>> 8));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 23;
        case 1 -> x >>> 28;
        case 2 -> x * 4;
        case 3 -> x + 9;
        case 4 -> x ^ 14;
        case 5 -> x - 19;
        case 6 -> x | 24;
        case 7 -> x & 29;
        default -> ~x;
      };
    }
    return x;
  }

  static long m8(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 47 + (i ^ (x >>> 9));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 30;
        case 1 -> x >>> 6;
        case 2 -> x * 11;
        case 3 -> x + 16;
        case 4 -> x ^ 21;
        case 5 -> x - 26;
        case 6 -> x | 31;
        case 7 -> x & 7;
        default -> ~x;
      };
    }
    return x;
  }

  static long m9(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 49 + (i ^ (x >>> 10));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 8;
        case 1 -> x >>> 13;
        case 2 -> x * 18;
        case 3 -> x + 23;
        case 4 -> x ^ 28;
        case 5 -> x - 4;
        case 6 -> x | 9;
        case 7 -> x & 14;
        default -> ~x;
      };
    }
    return x;
  }

  static long m10(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 51 + (i ^ (x >>> 11));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 15;
        case 1 -> x >>> 20;
        case 2 -> x * 25;
        case 3 -> x + 30;
        case 4 -> x ^ 6;
        case 5 -> x - 11;
        case 6 -> x | 16;
        case 7 -> x & 21;
        default -> ~x;
      };
    }
    return x;
  }

  static long m11(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 53 + (i ^ (x >>> 12));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 22;
        case 1 -> x >>> 27;
        case 2 -> x * 3;
        case 3 -> x + 8;
        case 4 -> x ^ 13;
        case 5 -> x - 18;
        case 6 -> x | 23;
        case 7 -> x & 28;
        default -> ~x;
      };
    }
    return x;
  }

  static long m12(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 55 + (i ^ (x >>> 13));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 29;
        case 1 -> x >>> 5;
        case 2 -> x * 10;
        case 3 -> x + 15;
        case 4 -> x ^ 20;
        case 5 -> x - 25;
        case 6 -> x | 30;
        case 7 -> x & 6;
        default -> ~x;
      };
    }
    return x;
  }

  static long m13(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 57 + (i ^ (x >>> 1));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 7;
        case 1 -> x >>> 12;
        case 2 -> x * 17;
        case 3 -> x + 22;
        case 4 -> x ^ 27;
        case 5 -> x - 3;
        case 6 -> x | 8;
        case 7 -> x & 13;
        default -> ~x;
      };
    }
    return x;
  }

  static long m14(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 59 + (i ^ (x >>> 2));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 14;
        case 1 -> x >>> 19;
        case 2 -> x * 24;
        case 3 -> x + 29;
        case 4 -> x ^ 5;
        case 5 -> x - 10;
        case 6 -> x | 15;
        case 7 -> x & 20;
        default -> ~x;
      };
    }
    return x;
  }

  static long m15(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 61 + (i ^ (x >>> 3));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 21;
        case 1 -> x >>> 26;
        case 2 -> x * 31;
        case 3 -> x + 7;
        case 4 -> x ^ 12;
        case 5 -> x - 17;
        case 6 -> x | 22;
        case 7 -> x & 27;
        default -> ~x;
      };
    }
    return x;
  }

  static long m16(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 63 + (i ^ (x >>> 4));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 28;
        case 1 -> x >>> 4;
        case 2 -> x * 9;
        case 3 -> x + 14;
        case 4 -> x ^ 19;
        case 5 -> x - 24;
        case 6 -> x | 29;
        case 7 -> x & 5;
        default -> ~x;
      };
    }
    return x;
  }

  static long m17(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 65 + (i ^ (x >>> 5));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 6;
        case 1 -> x >>> 11;
        case 2 -> x * 16;
        case 3 -> x + 21;
        case 4 -> x ^ 26;
        case 5 -> x - 31;
        case 6 -> x | 7;
        case 7 -> x & 12;
        default -> ~x;
      };
    }
    return x;
  }

  static long m18(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 67 + (i ^ (x >>> 6));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 13;
        case 1 -> x >>> 18;
        case 2 -> x * 23;
        case 3 -> x + 28;
        case 4 -> x ^ 4;
        case 5 -> x - 9;
        case 6 -> x | 14;
        case 7 -> x & 19;
        default -> ~x;
      };
    }
    return x;
  }

  static long m19(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 69 + (i ^ (x >>> 7));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 20;
        case 1 -> x >>> 25;
        case 2 -> x * 30;
        case 3 -> x + 6;
        case 4 -> x ^ 11;
        case 5 -> x - 16;
        case 6 -> x | 21;
        case 7 -> x & 26;
        default -> ~x;
      };
    }
    return x;
  }

  static long m20(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 71 + (i ^ (x >>> 8));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 27;
        case 1 -> x >>> 3;
        case 2 -> x * 8;
        case 3 -> x + 13;
        case 4 -> x ^ 18;
        case 5 -> x - 23;
        case 6 -> x | 28;
        case 7 -> x & 4;
        default -> ~x;
      };
    }
    return x;
  }

  static long m21(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 73 + (i ^ (x >>> 9));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 5;
        case 1 -> x >>> 10;
        case 2 -> x * 15;
        case 3 -> x + 20;
        case 4 -> x ^ 25;
        case 5 -> x - 30;
        case 6 -> x | 6;
        case 7 -> x & 11;
        default -> ~x;
      };
    }
    return x;
  }

  static long m22(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 75 + (i ^ (x >>> 10));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 12;
        case 1 -> x >>> 17;
        case 2 -> x * 22;
        case 3 -> x + 27;
        case 4 -> x ^ 3;
        case 5 -> x - 8;
        case 6 -> x | 13;
        case 7 -> x & 18;
        default -> ~x;
      };
    }
    return x;
  }

  static long m23(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 77 + (i ^ (x >>> 11));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 19;
        case 1 -> x >>> 24;
        case 2 -> x * 29;
        case 3 -> x + 5;
        case 4 -> x ^ 10;
        case 5 -> x - 15;
        case 6 -> x | 20;
        case 7 -> x & 25;
        default -> ~x;
      };
    }
    return x;
  }

  static long m24(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 79 + (i ^ (x >>> 12));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 26;
        case 1 -> x >>> 31;
        case 2 -> x * 7;
        case 3 -> x + 12;
        case 4 -> x ^ 17;
        case 5 -> x - 22;
        case 6 -> x | 27;
        case 7 -> x & 3;
        default -> ~x;
      };
    }
    return x;
  }

  static long m25(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 81 + (i ^ (x >>> 13));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 4;
        case 1 -> x >>> 9;
        case 2 -> x * 14;
        case 3 -> x + 19;
        case 4 -> x ^ 24;
        case 5 -> x - 29;
        case 6 -> x | 5;
        case 7 -> x & 10;
        default -> ~x;
      };
    }
    return x;
  }

  static long m26(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 83 + (i ^ (x >>> 1));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 11;
        case 1 -> x >>> 16;
        case 2 -> x * 21;
        case 3 -> x + 26;
        case 4 -> x ^ 31;
        case 5 -> x - 7;
        case 6 -> x | 12;
        case 7 -> x & 17;
        default -> ~x;
      };
    }
    return x;
  }

  static long m27(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 85 + (i ^ (x >>> 2));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 18;
        case 1 -> x >>> 23;
        case 2 -> x * 28;
        case 3 -> x + 4;
        case 4 -> x ^ 9;
        case 5 -> x - 14;
        case 6 -> x | 19;
        case 7 -> x & 24;
        default -> ~x;
      };
    }
    return x;
  }

  static long m28(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 87 + (i ^ (x >>> 3));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 25;
        case 1 -> x >>> 30;
        case 2 -> x * 6;
        case 3 -> x + 11;
        case 4 -> x ^ 16;
        case 5 -> x - 21;
        case 6 -> x | 26;
        case 7 -> x & 31;
        default -> ~x;
      };
    }
    return x;
  }

  static long m29(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 89 + (i ^ (x >>> 4));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 3;
        case 1 -> x >>> 8;
        case 2 -> x * 13;
        case 3 -> x + 18;
        case 4 -> x ^ 23;
        case 5 -> x - 28;
        case 6 -> x | 4;
        case 7 -> x & 9;
        default -> ~x;
      };
    }
    return x;
  }

  static long m30(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 91 + (i ^ (x >>> 5));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 10;
        case 1 -> x >>> 15;
        case 2 -> x * 20;
        case 3 -> x + 25;
        case 4 -> x ^ 30;
        case 5 -> x - 6;
        case 6 -> x | 11;
        case 7 -> x & 16;
        default -> ~x;
      };
    }
    return x;
  }

  static long m31(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 93 + (i ^ (x >>> 6));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 17;
        case 1 -> x >>> 22;
        case 2 -> x * 27;
        case 3 -> x + 3;
        case 4 -> x ^ 8;
        case 5 -> x - 13;
        case 6 -> x | 18;
        case 7 -> x & 23;
        default -> ~x;
      };
    }
    return x;
  }

  static long m32(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 95 + (i ^ (x >>> 7));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 24;
        case 1 -> x >>> 29;
        case 2 -> x * 5;
        case 3 -> x + 10;
        case 4 -> x ^ 15;
        case 5 -> x - 20;
        case 6 -> x | 25;
        case 7 -> x & 30;
        default -> ~x;
      };
    }
    return x;
  }

  static long m33(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 97 + (i ^ (x >>> 8));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 31;
        case 1 -> x >>> 7;
        case 2 -> x * 12;
        case 3 -> x + 17;
        case 4 -> x ^ 22;
        case 5 -> x - 27;
        case 6 -> x | 3;
        case 7 -> x & 8;
        default -> ~x;
      };
    }
    return x;
  }

  static long m34(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 99 + (i ^ (x >>> 9));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 9;
        case 1 -> x >>> 14;
        case 2 -> x * 19;
        case 3 -> x + 24;
        case 4 -> x ^ 29;
        case 5 -> x - 5;
        case 6 -> x | 10;
        case 7 -> x & 15;
        default -> ~x;
      };
    }
    return x;
  }

  static long m35(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 101 + (i ^ (x >>> 10));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 16;
        case 1 -> x >>> 21;
        case 2 -> x * 26;
        case 3 -> x + 31;
        case 4 -> x ^ 7;
        case 5 -> x - 12;
        case 6 -> x | 17;
        case 7 -> x & 22;
        default -> ~x;
      };
    }
    return x;
  }

  static long m36(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 103 + (i ^ (x >>> 11));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 23;
        case 1 -> x >>> 28;
        case 2 -> x * 4;
        case 3 -> x + 9;
        case 4 -> x ^ 14;
        case 5 -> x - 19;
        case 6 -> x | 24;
        case 7 -> x & 29;
        default -> ~x;
      };
    }
    return x;
  }

  static long m37(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 105 + (i ^ (x >>> 12));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 30;
        case 1 -> x >>> 6;
        case 2 -> x * 11;
        case 3 -> x + 16;
        case 4 -> x ^ 21;
        case 5 -> x - 26;
        case 6 -> x | 31;
        case 7 -> x & 7;
        default -> ~x;
      };
    }
    return x;
  }

  static long m38(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 107 + (i ^ (x >>> 13));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 8;
        case 1 -> x >>> 13;
        case 2 -> x * 18;
        case 3 -> x + 23;
        case 4 -> x ^ 28;
        case 5 -> x - 4;
        case 6 -> x | 9;
        case 7 -> x & 14;
        default -> ~x;
      };
    }
    return x;
  }

  static long m39(long x) {
    for (int i = 0; i < 64; i++) {
      x = x * 109 + (i ^ (x >>> 1));
      x ^= switch ((int) (x & 7)) {
        case 0 -> x << 15;
        case 1 -> x >>> 20;
        case 2 -> x * 25;
        case 3 -> x + 30;
        case 4 -> x ^ 6;
        case 5 -> x - 11;
        case 6 -> x | 16;
        case 7 -> x & 21;
        default -> ~x;
      };
    }
    return x;
  }

  /** Calls method {@code k} {@code times} times. */
  static long call(int k, int times) {
    long x = k;
    for (int t = 0; t < times; t++) {
      x = switch (k) {
        case 0 -> m0(x);
        case 1 -> m1(x);
        case 2 -> m2(x);
        case 3 -> m3(x);
        case 4 -> m4(x);
        case 5 -> m5(x);
        case 6 -> m6(x);
        case 7 -> m7(x);
        case 8 -> m8(x);
        case 9 -> m9(x);
        case 10 -> m10(x);
        case 11 -> m11(x);
        case 12 -> m12(x);
        case 13 -> m13(x);
        case 14 -> m14(x);
        case 15 -> m15(x);
        case 16 -> m16(x);
        case 17 -> m17(x);
        case 18 -> m18(x);
        case 19 -> m19(x);
        case 20 -> m20(x);
        case 21 -> m21(x);
        case 22 -> m22(x);
        case 23 -> m23(x);
        case 24 -> m24(x);
        case 25 -> m25(x);
        case 26 -> m26(x);
        case 27 -> m27(x);
        case 28 -> m28(x);
        case 29 -> m29(x);
        case 30 -> m30(x);
        case 31 -> m31(x);
        case 32 -> m32(x);
        case 33 -> m33(x);
        case 34 -> m34(x);
        case 35 -> m35(x);
        case 36 -> m36(x);
        case 37 -> m37(x);
        case 38 -> m38(x);
        case 39 -> m39(x);
        default -> throw new IllegalArgumentException("no method " + k);
      };
    }
    return x;
  }

  /** Starts a daemon thread calling each method in turn, hot enough for both compilers. */
  static void keepTheCompilersBusy() {
    Thread t = new Thread(() -> {
      long sink = 0;
      for (int k = 0; k < COUNT; k++) {
        sink += call(k, 30_000);
      }
      System.setProperty("joblib4j.test.sink", Long.toString(sink));
    }, "hot-methods");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Calls every method hot, then waits up to 20 s for the JIT to compile all of them; returns how
   * many it compiled. A method the archive holds as queued for compilation is never compiled.
   */
  static int compiledAfterCallingEach() throws Exception {
    for (int k = 0; k < COUNT; k++) {
      call(k, 30_000);
    }
    int compiled = 0;
    long until = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < until) {
      String list = (String) ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerCodelist", new Object[0], new String[0]);
      compiled = 0;
      for (int k = 0; k < COUNT; k++) {
        if (list.contains("HotMethods.m" + k + "(J)J")) {
          compiled++;
        }
      }
      if (compiled == COUNT) {
        break;
      }
      Thread.sleep(100);
    }
    return compiled;
  }
}
