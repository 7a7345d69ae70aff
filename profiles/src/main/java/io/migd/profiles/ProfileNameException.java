package io.migd.profiles;

/**
 * Thrown when a MIG profile name breaks NVIDIA's grammar ({@code [<c>c.]<g>g.<m>gb} followed by the
 * attributes {@code +me}, {@code -me}, {@code +me.all} or {@code +gfx}).
 *
 * <p>The message quotes the name and says what is wrong with it, so it can be shown to a user as it
 * is. A well-formed name that a GPU does not offer is not this exception: that is a question for
 * the catalogue or the planner.
 */
public final class ProfileNameException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The rejected name, as given. */
  private final String name;

  /**
   * Creates the exception for a rejected name.
   *
   * @param name the name as given (may be empty)
   * @param reason what is wrong, in a few words, without the name
   */
  public ProfileNameException(String name, String reason) {
    super("invalid MIG profile name \"" + name + "\": " + reason);
    this.name = name;
  }

  /**
   * The rejected name, exactly as it was given.
   *
   * @return the name
   */
  public String name() {
    return name;
  }
}
