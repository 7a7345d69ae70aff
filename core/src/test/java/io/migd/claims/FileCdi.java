package io.migd.claims;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A CDI writer for tests: one file per claim listing its devices, so a test (and a restarted
 * process) sees which specs exist; the IDs are the two a device answers.
 */
final class FileCdi implements ClaimCdi {
  private final Path dir;

  FileCdi(Path dir) {
    this.dir = dir;
  }

  @Override
  public List<String> write(String claimUid, List<CdiDevice> devices) {
    var ids = new ArrayList<String>();
    var lines = new ArrayList<String>();
    for (CdiDevice d : devices) {
      ids.add("k8s.migd.io/claim=" + claimUid + "-" + d.deviceName());
      ids.add("nvidia.com/gpu=" + d.device().gpuUuid());
      lines.add(d.toString());
    }
    try {
      Files.createDirectories(dir);
      Files.write(dir.resolve(claimUid), lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ids;
  }

  @Override
  public void remove(String claimUid) {
    try {
      Files.deleteIfExists(dir.resolve(claimUid));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The devices of the claim's spec, empty when it has none. */
  List<String> spec(String claimUid) {
    try {
      Path file = dir.resolve(claimUid);
      return Files.exists(file) ? Files.readAllLines(file) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The claims that have a spec. */
  List<String> claims() {
    try (var files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
