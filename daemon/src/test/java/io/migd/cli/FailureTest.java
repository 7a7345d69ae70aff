package io.migd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.reconcile.MisconfiguredPathException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;

/** A path property that names something unusable is bad usage naming it, never a bug. */
class FailureTest {
  @Test
  void aMisconfiguredPathPropertyExitsTwoNamingIt() {
    var thrown =
        new BeanCreationException(
            "draPreparer",
            "creating the DRA driver",
            new MisconfiguredPathException(
                "migd.dra.proc-root",
                "/host/sys/kernel/random/boot_id cannot be read (NoSuchFileException)",
                null));

    Failure failure = Failure.of(thrown);

    assertThat(failure.exitStatus()).isEqualTo(ExitStatus.USAGE);
    assertThat(failure.expected()).isTrue();
    assertThat(failure.message())
        .isEqualTo(
            "migd.dra.proc-root: /host/sys/kernel/random/boot_id cannot be read"
                + " (NoSuchFileException)");
  }
}
