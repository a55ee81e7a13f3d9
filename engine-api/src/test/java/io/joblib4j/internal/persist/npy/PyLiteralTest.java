package io.joblib4j.internal.persist.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PyLiteralTest {
  @Test
  void readsTheHeadersNumpyWritesAndOldPythonsSpellings() throws Exception {
    Map<String, Object> d = PyLiteral.parseDict("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }    \n");
    assertThat(d).containsEntry("descr", "<f8").containsEntry("fortran_order", false);
    assertThat(d.get("shape")).isInstanceOf(PyLiteral.Tuple.class).isEqualTo(List.of(3L, 4L));
    // Python 2's numpy wrote 3L; double quotes and no trailing comma are Python too
    Map<String, Object> old = PyLiteral.parseDict("{\"descr\": \"|b1\", \"fortran_order\": True, \"shape\": (3L,)}");
    assertThat(old.get("shape")).isEqualTo(List.of(3L));
    assertThat(PyLiteral.parseDict("{'shape': ()}").get("shape")).isEqualTo(List.of());
    assertThat(PyLiteral.parseDict("{'descr': [('x', '<f8'), ('y', '<i4', (2,))]}").get("descr"))
        .isEqualTo(List.of(List.of("x", "<f8"), List.of("y", "<i4", List.of(2L))));
    assertThat(PyLiteral.parseDict("{'a': 'it\\'s', 'b': None, 'c': -1}"))
        .containsEntry("a", "it's").containsEntry("b", PyLiteral.NONE).containsEntry("c", -1L);
  }

  @Test
  void refusesEverythingThatIsNotALiteral() {
    for (String bad : new String[] {"{'a': 1 + 2}", "{'a': f(1)}", "{'a': 1.5}", "{'a': 1e3}", "{'a': b'x'}",
        "{'a': 'x\\n'}", "{'a': 99999999999999999999}", "{'a': {1: 2}}", "{'a' 1}", "{'a': 1", "{'a': (1,}",
        "{}{}", "", "{'a': [1, 2}", "{'a': 'unclosed}", "{'a': 0x10}"}) {
      assertThatThrownBy(() -> PyLiteral.parseDict(bad)).as(bad).isInstanceOf(PyLiteral.BadLiteral.class)
          .hasMessageContaining("at character");
    }
  }

  @Test
  void boundsTheItemsAHeaderMayHold() {
    String many = "{'shape': (" + "1, ".repeat(5000) + ")}";
    assertThatThrownBy(() -> PyLiteral.parseDict(many)).isInstanceOf(PyLiteral.BadLiteral.class)
        .hasMessageContaining("more than 4096 items");
  }
}
