package io.joblib4j.internal.fn;

import io.joblib4j.fn.Fn0;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.fn.Fn5;
import io.joblib4j.fn.Fn6;

/** Calls one of {@code Fn0} ... {@code Fn6} with an array of arguments, without reflection. */
public final class Invoke {
  private Invoke() {}

  /** {@code fn(args...)}; the function's exception, checked or not, propagates. */
  @SuppressWarnings("unchecked")
  public static Object call(Object fn, Object[] args) throws Exception {
    return switch (args.length) {
      case 0 -> ((Fn0<Object>) fn).invoke();
      case 1 -> ((Fn1<Object, Object>) fn).invoke(args[0]);
      case 2 -> ((Fn2<Object, Object, Object>) fn).invoke(args[0], args[1]);
      case 3 -> ((Fn3<Object, Object, Object, Object>) fn).invoke(args[0], args[1], args[2]);
      case 4 -> ((Fn4<Object, Object, Object, Object, Object>) fn).invoke(args[0], args[1], args[2], args[3]);
      case 5 -> ((Fn5<Object, Object, Object, Object, Object, Object>) fn)
          .invoke(args[0], args[1], args[2], args[3], args[4]);
      case 6 -> ((Fn6<Object, Object, Object, Object, Object, Object, Object>) fn)
          .invoke(args[0], args[1], args[2], args[3], args[4], args[5]);
      default -> throw new IllegalArgumentException("functions take 0 to 6 arguments, not " + args.length);
    };
  }
}
