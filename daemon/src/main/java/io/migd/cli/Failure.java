package io.migd.cli;

import io.migd.app.StateLock;
import io.migd.cdi.CdiSetupException;
import io.migd.node.dra.UnsupportedKubernetesException;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlLoadException;
import io.migd.nvml.NvmlReturn;
import io.migd.profiles.ConfigFileException;
import io.migd.profiles.ProfileNameException;
import io.migd.reconcile.IntentStore;
import io.migd.reconcile.MisconfiguredPathException;
import io.migd.rest.auth.AuthRefusedException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.web.server.PortInUseException;
import picocli.CommandLine;

/**
 * How a command that failed with an exception ends: its exit status and the one line it prints on
 * stderr. Expected conditions are found anywhere in the cause chain, since Spring wraps what a bean
 * throws; anything else is a bug.
 *
 * @param exitStatus the process's exit status
 * @param message the line for stderr, without the {@code migd: } prefix
 * @param expected false for an internal error, whose stack trace goes to the debug log
 */
record Failure(int exitStatus, String message, boolean expected) {

  static Failure of(Throwable thrown) {
    for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
      Failure known = known(cause);
      if (known != null) {
        return known;
      }
    }
    return new Failure(
        ExitStatus.INTERNAL,
        "internal error (a bug in migd): "
            + thrown
            + "; run with MIGD_LOG_LEVEL=DEBUG for the stack trace",
        false);
  }

  private static Failure known(Throwable cause) {
    return switch (cause) {
      case NvmlLoadException e -> expected(ExitStatus.ENVIRONMENT, e.getMessage());
      case StateLock.UnavailableException e -> expected(ExitStatus.ENVIRONMENT, e.getMessage());
      case EnvironmentException e -> expected(ExitStatus.ENVIRONMENT, e.getMessage());
      case IntentStore.UnreadableException e -> expected(ExitStatus.ENVIRONMENT, e.getMessage());
      case ConfigFileException e -> expected(ExitStatus.USAGE, e.getMessage());
      case MisconfiguredPathException e -> expected(ExitStatus.USAGE, e.getMessage());
      case ProfileNameException e -> expected(ExitStatus.USAGE, e.getMessage());
      case AuthRefusedException e -> expected(ExitStatus.USAGE, e.getMessage());
      case UnsupportedKubernetesException e -> expected(ExitStatus.USAGE, e.getMessage());
      case CdiSetupException e -> expected(ExitStatus.USAGE, e.getMessage());
      case CommandLine.ParameterException e -> expected(ExitStatus.USAGE, e.getMessage());
      // a check across properties names them itself; one value's refusal is named here
      case BindException e when e.getProperty() == null ->
          expected(ExitStatus.USAGE, rootMessage(e));
      case BindException e ->
          expected(
              ExitStatus.USAGE,
              "invalid value for "
                  + e.getName()
                  + " ("
                  + e.getProperty().getValue()
                  + "): "
                  + rootMessage(e));
      case PortInUseException e ->
          expected(
              ExitStatus.ENVIRONMENT,
              "port "
                  + e.getPort()
                  + " is already in use; stop what listens there or choose another with"
                  + " --server.port=PORT");
      case DaemonStatus.DaemonRefusedException e ->
          expected(ExitStatus.NOT_REACHED, e.getMessage());
      case NvmlException e when e.code() == NvmlReturn.NO_PERMISSION ->
          expected(
              ExitStatus.ENVIRONMENT, e.getMessage() + ": MIG changes need root; run migd as root");
      case NvmlException e -> expected(ExitStatus.NOT_REACHED, e.getMessage());
      default -> null;
    };
  }

  private static Failure expected(int status, String message) {
    return new Failure(status, message, true);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }
}
