package io.migd.profiles;

import static io.migd.profiles.ProfileName.Attribute.ALL_MEDIA_EXTENSIONS;
import static io.migd.profiles.ProfileName.Attribute.GRAPHICS;
import static io.migd.profiles.ProfileName.Attribute.MEDIA_EXTENSIONS;
import static io.migd.profiles.ProfileName.Attribute.NO_MEDIA_EXTENSIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.profiles.ProfileName.Attribute;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProfileNameGrammarTest {

  record Accepted(String text, int c, int g, int gb, List<Attribute> attributes, String canonical) {
    @Override
    public String toString() {
      return text;
    }
  }

  static Stream<Accepted> accepted() {
    return Stream.of(
        new Accepted("1g.10gb", 1, 1, 10, List.of(), "1g.10gb"),
        new Accepted("1g.10gb+me", 1, 1, 10, List.of(MEDIA_EXTENSIONS), "1g.10gb+me"),
        new Accepted("1g.12gb-me", 1, 1, 12, List.of(NO_MEDIA_EXTENSIONS), "1g.12gb-me"),
        new Accepted("1g.24gb+me.all", 1, 1, 24, List.of(ALL_MEDIA_EXTENSIONS), "1g.24gb+me.all"),
        new Accepted("1g.24gb+gfx", 1, 1, 24, List.of(GRAPHICS), "1g.24gb+gfx"),
        new Accepted("2g.48gb-me", 2, 2, 48, List.of(NO_MEDIA_EXTENSIONS), "2g.48gb-me"),
        new Accepted("7g.141gb", 7, 7, 141, List.of(), "7g.141gb"),
        new Accepted("1c.3g.40gb", 1, 3, 40, List.of(), "1c.3g.40gb"),
        new Accepted("1c.4g.20gb", 1, 4, 20, List.of(), "1c.4g.20gb"),
        new Accepted("3c.3g.20gb", 3, 3, 20, List.of(), "3g.20gb"),
        new Accepted("1c.1g.5gb+me", 1, 1, 5, List.of(MEDIA_EXTENSIONS), "1g.5gb+me"),
        new Accepted("4g.96gb+gfx", 4, 4, 96, List.of(GRAPHICS), "4g.96gb+gfx"),
        new Accepted(
            "1g.24gb+gfx+me", 1, 1, 24, List.of(MEDIA_EXTENSIONS, GRAPHICS), "1g.24gb+me+gfx"),
        new Accepted(
            "1g.24gb+gfx-me", 1, 1, 24, List.of(NO_MEDIA_EXTENSIONS, GRAPHICS), "1g.24gb-me+gfx"),
        new Accepted("10g.1000gb", 10, 10, 1000, List.of(), "10g.1000gb"));
  }

  @ParameterizedTest
  @MethodSource("accepted")
  void acceptsNameInNvidiaGrammar(Accepted c) {
    var name = ProfileName.parse(c.text());

    assertThat(name.computeSlices()).isEqualTo(c.c());
    assertThat(name.gpuSlices()).isEqualTo(c.g());
    assertThat(name.memoryGb()).isEqualTo(c.gb());
    assertThat(name.attributes()).containsExactlyElementsOf(c.attributes());
    assertThat(name).hasToString(c.canonical());
    assertThat(ProfileName.parse(c.canonical())).isEqualTo(name);
  }

  record Rejected(String text, String reason) {
    @Override
    public String toString() {
      return "\"" + text + "\"";
    }
  }

  static Stream<Rejected> rejected() {
    return Stream.of(
        new Rejected("", "the name is empty"),
        new Rejected(" 1g.10gb", "it contains whitespace"),
        new Rejected("1g.10gb ", "it contains whitespace"),
        new Rejected("MIG 1g.10gb", "it contains whitespace"),
        new Rejected("g.10gb", "expected the slice count at position 0"),
        new Rejected("1G.10gb", "expected \"g.\" or \"c.\" after the slice count 1"),
        new Rejected("1g10gb", "expected \"g.\" or \"c.\" after the slice count 1"),
        new Rejected("1.10gb", "expected \"g.\" or \"c.\" after the slice count 1"),
        new Rejected("1g.10GB", "expected \"gb\" after the memory size 10"),
        new Rejected("1g.10", "expected \"gb\" after the memory size 10"),
        new Rejected("1g.10g", "expected \"gb\" after the memory size 10"),
        new Rejected("1g.gb", "expected the memory size at position 3"),
        new Rejected("1c.3g", "expected \"g.\" after the GPU-instance slice count"),
        new Rejected("1c.3g.", "expected the memory size at position 6"),
        new Rejected("1c.2c.3g.10gb", "expected \"g.\" after the GPU-instance slice count"),
        new Rejected("0g.10gb", "the slice count must be at least 1"),
        new Rejected("1g.0gb", "the memory size must be at least 1"),
        new Rejected("0c.1g.5gb", "the slice count must be at least 1"),
        new Rejected("01g.10gb", "number \"01\" has a leading zero"),
        new Rejected("1g.1234567gb", "number \"1234567\" is too large"),
        new Rejected(
            "4c.3g.40gb", "the compute instance (4c) is larger than its GPU instance (3g)"),
        new Rejected("1g.10gb+", "unknown attribute \"+\" (known: +me, +me.all, -me, +gfx)"),
        new Rejected("1g.10gb+mee", "unknown attribute \"+mee\" (known: +me, +me.all, -me, +gfx)"),
        new Rejected("1g.10gb+ME", "unknown attribute \"+ME\" (known: +me, +me.all, -me, +gfx)"),
        new Rejected("1g.10gb.me", "unknown attribute \".me\" (known: +me, +me.all, -me, +gfx)"),
        new Rejected("1g.10gbme", "unknown attribute \"me\" (known: +me, +me.all, -me, +gfx)"),
        new Rejected(
            "1g.10gb+me,gfx", "unknown attribute \"+me,gfx\" (known: +me, +me.all, -me, +gfx)"),
        new Rejected(
            "1g.10gb+me.al", "unknown attribute \"+me.al\" (known: +me, +me.all, -me, +gfx)"),
        new Rejected("1g.10gb+me+me", "attribute +me appears twice"),
        new Rejected("1g.10gb+me-me", "attributes +me and -me cannot be combined"),
        new Rejected("1g.10gb-me+me.all", "attributes +me.all and -me cannot be combined"));
  }

  @ParameterizedTest
  @MethodSource("rejected")
  void rejectsNameThatBreaksTheGrammarSayingWhy(Rejected c) {
    assertThatThrownBy(() -> ProfileName.parse(c.text()))
        .isInstanceOf(ProfileNameException.class)
        .hasMessage("invalid MIG profile name \"" + c.text() + "\": " + c.reason())
        .extracting(e -> ((ProfileNameException) e).name())
        .isEqualTo(c.text());
  }

  @Test
  void namesTheGpuInstanceOfAComputeInstanceProfile() {
    assertThat(ProfileName.parse("1c.4g.20gb").giProfileName()).hasToString("4g.20gb");
    assertThat(ProfileName.parse("1c.4g.20gb").hasComputeInstancePart()).isTrue();
    assertThat(ProfileName.parse("2g.10gb+me").giProfileName()).hasToString("2g.10gb+me");
    assertThat(ProfileName.parse("2g.10gb+me").hasComputeInstancePart()).isFalse();
  }

  @Test
  void buildsTheSameNameFromParts() {
    assertThat(ProfileName.of(1, 10, MEDIA_EXTENSIONS)).isEqualTo(ProfileName.parse("1g.10gb+me"));
    assertThat(ProfileName.of(1, 24, GRAPHICS, MEDIA_EXTENSIONS))
        .isEqualTo(ProfileName.parse("1g.24gb+me+gfx"));
    assertThat(ProfileName.parse("1g.24gb+gfx").has(GRAPHICS)).isTrue();
    assertThat(ProfileName.parse("1g.24gb+gfx").has(MEDIA_EXTENSIONS)).isFalse();
  }

  @Test
  void rejectsInvalidPartsInTheConstructor() {
    assertThatThrownBy(() -> new ProfileName(2, 1, 10, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exceed");
    assertThatThrownBy(() -> new ProfileName(1, 1, 0, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
