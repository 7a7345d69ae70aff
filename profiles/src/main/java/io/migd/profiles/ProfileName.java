package io.migd.profiles;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * A MIG profile name in NVIDIA's grammar, such as {@code 1g.10gb}, {@code 1g.10gb+me} or {@code
 * 1c.3g.40gb}.
 *
 * <p>The grammar is {@code [<c>c.]<g>g.<m>gb} followed by zero or more {@link Attribute}s. {@code
 * g} is the number of compute slices of the GPU instance, {@code m} its memory in GB as NVIDIA's
 * tools derive it ({@link #memoryGigabytes(long, long)}), and the optional {@code c} the compute
 * slices of a compute instance inside it. A name without {@code c} means the compute instance that
 * spans the whole GPU instance, so {@code 3c.3g.20gb} and {@code 3g.20gb} are the same profile and
 * both print as {@code 3g.20gb}. Attributes are kept in the order of {@link Attribute}, so equal
 * profiles are equal records and print the same {@link #toString() canonical form}.
 *
 * @param computeSlices compute slices of the compute instance; equal to {@code gpuSlices} when the
 *     name has no {@code c} part
 * @param gpuSlices compute slices of the GPU instance (the {@code g} part)
 * @param memoryGb memory of the GPU instance in GB (the {@code gb} part)
 * @param attributes the attributes, without duplicates, in {@link Attribute} order
 */
public record ProfileName(
    int computeSlices, int gpuSlices, int memoryGb, List<Attribute> attributes) {

  /** An attribute that follows the memory part of a profile name. */
  public enum Attribute {
    /** {@code +me}: the GPU instance holds media extensions (NVDEC, NVJPG, OFA). */
    MEDIA_EXTENSIONS("+me"),
    /** {@code +me.all}: the GPU instance holds all the media extensions of the GPU. */
    ALL_MEDIA_EXTENSIONS("+me.all"),
    /** {@code -me}: the GPU instance holds no media extensions. */
    NO_MEDIA_EXTENSIONS("-me"),
    /** {@code +gfx}: the GPU instance supports graphics APIs. */
    GRAPHICS("+gfx");

    private final String suffix;

    Attribute(String suffix) {
      this.suffix = suffix;
    }

    /**
     * The attribute as written in a profile name, with its leading {@code +} or {@code -}.
     *
     * @return for example {@code "+me"}
     */
    public String suffix() {
      return suffix;
    }

    private boolean isMediaExtensionChoice() {
      return this != GRAPHICS;
    }
  }

  /**
   * Validates the parts and puts the attributes in canonical order.
   *
   * @throws IllegalArgumentException if a count is below 1, the compute instance is larger than the
   *     GPU instance, or the attributes repeat or contradict each other
   */
  public ProfileName {
    if (gpuSlices < 1 || memoryGb < 1 || computeSlices < 1) {
      throw new IllegalArgumentException(
          "slices and memory must be at least 1: c="
              + computeSlices
              + " g="
              + gpuSlices
              + " gb="
              + memoryGb);
    }
    if (computeSlices > gpuSlices) {
      throw new IllegalArgumentException(
          "compute slices " + computeSlices + " exceed GPU-instance slices " + gpuSlices);
    }
    attributes = canonicalAttributes(attributes);
  }

  /**
   * A GPU-instance profile name: {@code of(1, 10, MEDIA_EXTENSIONS)} is {@code 1g.10gb+me}.
   *
   * @param gpuSlices compute slices of the GPU instance
   * @param memoryGb memory in GB
   * @param attributes attributes in any order
   * @return the name
   */
  public static ProfileName of(int gpuSlices, int memoryGb, Attribute... attributes) {
    return new ProfileName(gpuSlices, gpuSlices, memoryGb, List.of(attributes));
  }

  /**
   * Parses a profile name strictly: lower case, no spaces, no leading zeros, only the known
   * attributes, each at most once, and at most one of {@code +me}, {@code +me.all}, {@code -me}.
   *
   * @param text the name, for example {@code "1c.3g.40gb"}
   * @return the parsed name
   * @throws ProfileNameException if the text breaks the grammar; the message quotes it and says
   *     what is wrong
   */
  public static ProfileName parse(String text) {
    Objects.requireNonNull(text, "profile name");
    return new ProfileNameParser(text).parse();
  }

  /**
   * Whether the name has a compute-instance part ({@code 1c.3g.40gb}) that is smaller than its GPU
   * instance.
   *
   * @return true for a compute-instance profile such as {@code 1c.4g.20gb}
   */
  public boolean hasComputeInstancePart() {
    return computeSlices < gpuSlices;
  }

  /**
   * The GPU-instance profile this name refers to: the name without its {@code <c>c.} part. For
   * {@code 1c.4g.20gb} this is {@code 4g.20gb}; for a GPU-instance name, the name itself.
   *
   * @return the GPU-instance profile name
   */
  public ProfileName giProfileName() {
    return hasComputeInstancePart()
        ? new ProfileName(gpuSlices, gpuSlices, memoryGb, attributes)
        : this;
  }

  /**
   * The name of a compute instance of {@code computeSlices} slices inside a GPU instance of this
   * profile: {@code 1c.3g.40gb} for 1 slice of {@code 3g.40gb}, and the GPU-instance name itself
   * for the compute instance that spans it. The one place such names are built.
   *
   * @param computeSlices compute slices of the compute instance
   * @return the compute-instance profile name
   * @throws IllegalArgumentException if the compute instance is larger than the GPU instance
   */
  public ProfileName computeInstance(int computeSlices) {
    return new ProfileName(computeSlices, gpuSlices, memoryGb, attributes);
  }

  /**
   * Whether the name carries the attribute.
   *
   * @param attribute the attribute to look for
   * @return true if present
   */
  public boolean has(Attribute attribute) {
    return attributes.contains(attribute);
  }

  /**
   * The memory part of a profile name, derived as NVIDIA's tools derive it (go-nvlib, for drivers
   * whose NVML has no name field): the profile's share of the device memory rounded up to the next
   * eighth, times the device memory in GiB rounded up, rounded half-up to an integer. Exact integer
   * arithmetic, so shares that fall on an eighth and products that end in .5 come out right.
   *
   * @param profileMiB memory of the GPU-instance profile in MiB, as NVML reports it
   * @param totalMiB total memory of the GPU in MiB
   * @return the {@code gb} number of the profile name
   * @throws IllegalArgumentException if a size is not positive or the profile exceeds the total
   */
  public static int memoryGigabytes(long profileMiB, long totalMiB) {
    if (profileMiB < 1 || totalMiB < 1 || profileMiB > totalMiB) {
      throw new IllegalArgumentException(
          "profile memory " + profileMiB + " MiB must be between 1 and the total " + totalMiB);
    }
    long eighths = Math.ceilDiv(Math.multiplyExact(profileMiB, 8L), totalMiB);
    long totalGiB = Math.ceilDiv(totalMiB, 1024L);
    return Math.toIntExact(Math.floorDiv(Math.multiplyExact(eighths, totalGiB) + 4L, 8L));
  }

  /**
   * The canonical form: {@code [<c>c.]<g>g.<m>gb} and the attributes in {@link Attribute} order,
   * the {@code c} part only when it is smaller than {@code g}.
   *
   * @return for example {@code "1c.4g.20gb"} or {@code "1g.10gb+me"}
   */
  @Override
  public String toString() {
    var text = new StringBuilder();
    if (hasComputeInstancePart()) {
      text.append(computeSlices).append("c.");
    }
    text.append(gpuSlices).append("g.").append(memoryGb).append("gb");
    attributes.forEach(attribute -> text.append(attribute.suffix()));
    return text.toString();
  }

  private static List<Attribute> canonicalAttributes(List<Attribute> given) {
    var set = EnumSet.noneOf(Attribute.class);
    for (var attribute : given) {
      if (!set.add(Objects.requireNonNull(attribute, "attribute"))) {
        throw new IllegalArgumentException("attribute " + attribute.suffix() + " appears twice");
      }
    }
    var mediaChoices = set.stream().filter(Attribute::isMediaExtensionChoice).toList();
    if (mediaChoices.size() > 1) {
      throw new IllegalArgumentException(
          "attributes "
              + mediaChoices.get(0).suffix()
              + " and "
              + mediaChoices.get(1).suffix()
              + " cannot be combined");
    }
    return List.copyOf(new ArrayList<>(set));
  }
}
