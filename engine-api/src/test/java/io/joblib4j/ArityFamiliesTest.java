package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn0;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.fn.Fn5;
import io.joblib4j.fn.Fn6;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The arity families are written by hand (issue 37 weighed generating them: adjacent members differ
 * only in their type parameters and argument lists, and a generator would hide their Javadoc from
 * readers and IDEs). What keeps them right is this test: every member of a family has the same
 * methods, argument lists aside, and every overload family has a member for every arity.
 */
public class ArityFamiliesTest {
  static final List<Class<?>> FN = List.of(Fn0.class, Fn1.class, Fn2.class, Fn3.class, Fn4.class, Fn5.class, Fn6.class);
  static final List<Class<?>> MEMOIZED = List.of(MemoizedFn0.class, MemoizedFn1.class, MemoizedFn2.class,
      MemoizedFn3.class, MemoizedFn4.class, MemoizedFn5.class, MemoizedFn6.class);

  /**
   * A member's methods with the arity taken out: a run of the member's own argument types reads
   * {@code ARGS}, the member itself {@code SELF}.
   */
  static Set<String> shape(Class<?> member, int arity) {
    Set<String> out = new TreeSet<>();
    for (Method m : member.getDeclaredMethods()) {
      if (!Modifier.isPublic(m.getModifiers()) || m.isSynthetic()) {
        continue;
      }
      Type[] params = m.getGenericParameterTypes();
      long typeArgs = Arrays.stream(params).filter(p -> p instanceof TypeVariable<?>).count();
      String args = typeArgs == arity && arity > 0 && params.length >= arity
          ? "ARGS" + Arrays.stream(params).skip(arity).map(ArityFamiliesTest::name).collect(Collectors.joining(",", ",", ""))
          : Arrays.stream(params).map(ArityFamiliesTest::name).collect(Collectors.joining(","));
      String ret = m.getReturnType() == member ? "SELF" : name(m.getGenericReturnType());
      out.add(ret + " " + m.getName() + "(" + args.replaceAll(",$", "") + ")");
    }
    return out;
  }

  private static String name(Type t) {
    return t instanceof TypeVariable<?> ? "T" : t instanceof Class<?> c ? c.getSimpleName() : t.getTypeName()
        .replaceAll("<.*>", "");
  }

  /** Members of arity 1 and up have the same shapes; the one of arity 0 (no argument list to spot) the same names. */
  public static void assertUniform(List<Class<?>> family, int firstArity) {
    int from = firstArity == 0 ? 1 : 0;
    Set<String> first = shape(family.get(from), firstArity + from);
    for (int i = from + 1; i < family.size(); i++) {
      assertThat(shape(family.get(i), firstArity + i)).as(family.get(i).getSimpleName() + " against "
          + family.get(from).getSimpleName()).isEqualTo(first);
    }
    if (from == 1) {
      assertThat(names(family.get(0))).as(family.get(0).getSimpleName()).isEqualTo(names(family.get(1)));
    }
  }

  private static Set<String> names(Class<?> member) {
    return Arrays.stream(member.getDeclaredMethods()).filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic())
        .map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void everyFunctionTypeHasTheSameMethods() {
    assertUniform(FN, 0);
  }

  @Test
  void everyMemoizedFunctionTypeHasTheSameMethods() {
    assertUniform(MEMOIZED, 0);
  }

  @Test
  void memoryAndDelayedHaveAnOverloadForEveryArity() {
    for (Class<?> fn : FN) {
      assertThat(Arrays.stream(Memory.class.getMethods()).filter(m -> m.getName().equals("cache"))
          .anyMatch(m -> m.getParameterTypes()[0] == fn)).as("Memory.cache(" + fn.getSimpleName() + ")").isTrue();
      assertThat(Arrays.stream(Memory.class.getMethods()).filter(m -> m.getName().equals("eval"))
          .anyMatch(m -> m.getParameterTypes()[0] == fn)).as("Memory.eval(" + fn.getSimpleName() + ")").isTrue();
      assertThat(Arrays.stream(Delayed.class.getMethods()).filter(m -> m.getName().equals("delayed"))
          .anyMatch(m -> m.getParameterTypes()[0] == fn)).as("Delayed.delayed(" + fn.getSimpleName() + ")").isTrue();
    }
  }

  @Test
  void aMethodMissingFromOneMemberWouldBeFound() {
    // the shape sees a member's own methods: one a member lacks, or has alone, makes the sets differ
    assertThat(shape(MemoizedFn1.class, 1)).contains("SELF mmapMode(MmapMode)", "MissExplanation explain(ARGS)");
    assertThat(names(MemoizedFn0.class)).contains("explain", "mmapMode");
  }
}
