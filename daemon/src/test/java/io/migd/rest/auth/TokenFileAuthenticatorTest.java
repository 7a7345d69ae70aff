package io.migd.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFileAuthenticatorTest {
  @TempDir Path dir;

  @Test
  void acceptsExactlyTheTokenOfTheFileWithoutItsNewline() throws Exception {
    var file = Files.writeString(dir.resolve("token"), "  s3cret-Token\n");
    var authenticator = TokenFileAuthenticator.read(file.toString());

    assertThat(authenticator.check("s3cret-Token")).isEqualTo(new Verdict.Allowed());
    for (String wrong : new String[] {"s3cret-token", "s3cret-Token2", "s3cret-Toke", "x"}) {
      assertThat(authenticator.check(wrong))
          .as(wrong)
          .isInstanceOf(Verdict.Unauthenticated.class)
          .asString()
          .doesNotContain("s3cret");
    }
  }

  @Test
  void refusesAnEmptyOrMissingFileInOneLine() throws Exception {
    var empty = Files.writeString(dir.resolve("empty"), " \n\t\n");
    assertThatThrownBy(() -> TokenFileAuthenticator.read(empty.toString()))
        .isInstanceOf(AuthRefusedException.class)
        .hasMessage("migd.auth.token-file " + empty + " is empty; write the API token into it");
    assertThatThrownBy(() -> TokenFileAuthenticator.read(dir.resolve("missing").toString()))
        .isInstanceOf(AuthRefusedException.class)
        .hasMessageStartingWith(
            "migd.auth.token-file " + dir.resolve("missing") + " cannot be read")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> TokenFileAuthenticator.read(""))
        .isInstanceOf(AuthRefusedException.class)
        .hasMessageContaining("needs migd.auth.token-file");
  }

  @Test
  void aRotatedTokenReplacesTheOldOneAndAnEmptyOrMissingFileKeepsIt() throws Exception {
    var file = Files.writeString(dir.resolve("token"), "first\n");
    var authenticator = TokenFileAuthenticator.read(file.toString());

    Files.writeString(file, "second\n");
    assertThat(authenticator.reload()).isTrue();
    assertThat(authenticator.check("first")).isInstanceOf(Verdict.Unauthenticated.class);
    assertThat(authenticator.check("second")).isEqualTo(new Verdict.Allowed());
    assertThat(authenticator.reload()).as("the same token again").isFalse();

    Files.writeString(file, "\n");
    assertThat(authenticator.reload()).isFalse();
    assertThat(authenticator.check("second")).isEqualTo(new Verdict.Allowed());
    Files.delete(file);
    assertThat(authenticator.reload()).isFalse();
    assertThat(authenticator.check("second")).isEqualTo(new Verdict.Allowed());

    Files.writeString(file, "third");
    assertThat(authenticator.reload()).isTrue();
    assertThat(authenticator.check("third")).isEqualTo(new Verdict.Allowed());
  }
}
