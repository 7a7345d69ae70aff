package io.migd.app;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A command migd runs is an argument list ({@code
 * --migd.reset-command=nvidia-smi,-r,-i,{pciBusId}}), never a string split on whitespace: splitting
 * would break any argument that holds a space, and an element holding whitespace almost always
 * means the list form was not used.
 */
final class CommandList {
  private CommandList() {}

  /** The list, copied; refused with the list form to use when an element holds whitespace. */
  static List<String> check(String property, List<String> command) {
    if (command == null || command.isEmpty()) {
      throw new InvalidCommandException(
          property + " is empty; give the command as a list: --" + property + "=PROGRAM,ARG,...");
    }
    for (String element : command) {
      if (element.isBlank() || element.chars().anyMatch(Character::isWhitespace)) {
        String listForm =
            command.stream()
                .flatMap(e -> Arrays.stream(e.strip().split("\\s+")))
                .filter(e -> !e.isEmpty())
                .collect(Collectors.joining(","));
        throw new InvalidCommandException(
            property
                + " element \""
                + element
                + "\" holds whitespace; migd never splits commands, give one argument per"
                + " element: --"
                + property
                + "="
                + listForm);
      }
    }
    return List.copyOf(command);
  }

  /** A command property that is not a usable argument list; the message says how to fix it. */
  static final class InvalidCommandException extends IllegalArgumentException {
    InvalidCommandException(String message) {
      super(message);
    }
  }
}
