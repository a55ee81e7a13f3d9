package io.joblib4j.internal.fn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplNamesTest {

  @Test
  void canonicalNamesHaveNoCellNumberAndNoWrapperNesting() {
    assertThat(ReplNames.canonicalize("$line7.$read$$iw#slow(I)I")).isEqualTo("$line.$read#slow(I)I");
    assertThat(ReplNames.canonicalize("$line12.$read$$iw$$iw$$iw#slow(I)I")).isEqualTo("$line.$read#slow(I)I");
    assertThat(ReplNames.canonicalize("$line7.$read$$iw$$iw$Scorer$")).isEqualTo("$line.$read$Scorer$");
    assertThat(ReplNames.canonicalize("$line7.$read$$iw$Point")).isEqualTo("$line.$read$Point");
  }

  @Test
  void instructionTextOfOneCellIsTheSameWhateverItsNumber() {
    // what a method of cell 6 calling slow() of cell 1 looks like as bytecode text, run as cell 6 ...
    String asLine6 = "182 $line6/$read$$iw.$line6$$read$$iw$$$outer()L$line6/$read;"
        + "182 $line6/$read.$line1$read()L$line1/$read;182 $line1/$read.$iw()L$line1/$read$$iw;"
        + "21 v1;182 $line1/$read$$iw.slow(I)I;172;";
    // ... and after a restart in which one more cell ran before each of them
    String asLine9 = "182 $line9/$read$$iw$$iw.$line9$$read$$iw$$iw$$$outer()L$line9/$read;"
        + "182 $line9/$read.$line2$read()L$line2/$read;182 $line2/$read.$iw()L$line2/$read$$iw;"
        + "21 v1;182 $line2/$read$$iw.slow(I)I;172;";
    assertThat(ReplNames.canonicalize(asLine6)).isEqualTo(ReplNames.canonicalize(asLine9));
    assertThat(ReplNames.canonicalize(asLine6)).doesNotContainPattern("\\$line\\d").doesNotContain("$$iw");
  }

  @Test
  void databricksLineNamesAreCanonicalToo() {
    assertThat(ReplNames.canonicalize("$line9e3c1f2a4b5d46b7a8c9d0e1f2a3b4c525.$read$$iw$$iw#f(I)I"))
        .isEqualTo("$line.$read#f(I)I");
  }

  @Test
  void textWithoutReplNamesIsLeftAlone() {
    String text = "182 com/acme/Scorer.score(I)D;184 java/lang/Integer.valueOf(I)Ljava/lang/Integer;";
    assertThat(ReplNames.canonicalize(text)).isSameAs(text);
    assertThat(ReplNames.canonicalize("com.acme.$lineup.Reader")).isEqualTo("com.acme.$lineup.Reader");
  }

  @Test
  void tellsCellWrappersFromTheUsersClasses() {
    assertThat(ReplNames.isWrapper("$line7.$read")).isTrue();
    assertThat(ReplNames.isWrapper("$line7.$read$$iw$$iw")).isTrue();
    assertThat(ReplNames.isWrapper("$line7/$read$$iw")).isTrue();
    assertThat(ReplNames.isWrapper("$line7.$read$$iw$Point")).isFalse();
    assertThat(ReplNames.isWrapper("com.acme.Reader")).isFalse();
    assertThat(ReplNames.isReplClass("$line7.$read$$iw$Point")).isTrue();
    assertThat(ReplNames.isReplClass("com.acme.Reader")).isFalse();
  }

  @Test
  void usersNameOfAReplClass() {
    assertThat(ReplNames.userName("$line7.$read$$iw$$iw$Scorer$")).isEqualTo("Scorer");
    assertThat(ReplNames.userName("$line7/$read$$iw$Outer$Inner")).isEqualTo("Outer.Inner");
    assertThat(ReplNames.userName("$line7.$read$$iw")).isEmpty();
  }
}
