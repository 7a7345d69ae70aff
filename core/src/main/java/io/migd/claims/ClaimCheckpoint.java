package io.migd.claims;

import io.migd.claims.CheckpointFormat.Body;
import io.migd.claims.CheckpointFormat.Stored;
import io.migd.ownership.CheckpointClaim;
import io.migd.ownership.ClaimedDevices;
import io.migd.reconcile.AtomicFiles;
import io.migd.reconcile.MisconfiguredPathException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The DRA checkpoint, {@code <state-dir>/dra-checkpoint.json}: per claim its UID, namespace, name,
 * state ({@code prepareStarted} or {@code prepareCompleted}) and devices, with the boot id it was
 * written under and a checksum of both. Readers ({@link #all()}) answer from memory; every change
 * is written through ({@link AtomicFiles#writeForThisBoot}) before the call that made it returns:
 * atomic against a crash of migd, and not flushed to the disk, since after a power cut or a kernel
 * crash the node boots again and a different boot id drops the checkpoint anyway.
 */
public final class ClaimCheckpoint implements ClaimedDevices {
  /** The file's name in the state directory. */
  public static final String FILE_NAME = "dra-checkpoint.json";

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int FORMAT_VERSION = 1;

  /** What was found when the checkpoint was opened. */
  public sealed interface Loaded {
    /** No file: the first start in DRA mode. */
    record Empty() implements Loaded {}

    /** The file was read, written under this boot. */
    record Read(int claims) implements Loaded {}

    /** The file was written under another boot: every instance it named is gone; dropped. */
    record OtherBoot(String previousBootId) implements Loaded {}

    /** The file cannot be trusted; it was moved aside to {@code keptAt} and treated as empty. */
    record Corrupt(String reason, Path keptAt) implements Loaded {}
  }

  private final Path file;
  private final String bootId;
  private final Loaded loaded;
  private final ReentrantLock writing = new ReentrantLock();
  private final Object changing = new Object();
  private volatile Map<String, CheckpointClaim> claims;
  private long version;
  private long written;

  private ClaimCheckpoint(
      Path file, String bootId, Loaded loaded, Map<String, CheckpointClaim> claims) {
    this.file = file;
    this.bootId = bootId;
    this.loaded = loaded;
    this.claims = Map.copyOf(claims);
  }

  /**
   * Opens the checkpoint in {@code stateDir}: keeps it when it was written under the boot {@code
   * bootIdFile} names, drops it otherwise, and moves a corrupt one aside ({@link #loaded()} says
   * which).
   */
  public static ClaimCheckpoint open(Path stateDir, Path bootIdFile) {
    Path file = stateDir.resolve(FILE_NAME);
    String bootId = readBootId(bootIdFile);
    if (!Files.exists(file)) {
      return new ClaimCheckpoint(file, bootId, new Loaded.Empty(), Map.of());
    }
    var read = new LinkedHashMap<String, CheckpointClaim>();
    try {
      Stored stored = JSON.readValue(Files.readString(file), Stored.class);
      check(stored);
      if (!stored.bootId().equals(bootId)) {
        return new ClaimCheckpoint(file, bootId, new Loaded.OtherBoot(stored.bootId()), Map.of());
      }
      stored.claims().forEach(c -> read.put(c.uid(), CheckpointFormat.fromStored(c)));
    } catch (IOException | JacksonException | IllegalArgumentException | NullPointerException e) {
      return new ClaimCheckpoint(file, bootId, corrupt(file, e), Map.of());
    }
    return new ClaimCheckpoint(file, bootId, new Loaded.Read(read.size()), read);
  }

  private static String readBootId(Path bootIdFile) {
    try {
      return Files.readString(bootIdFile).strip();
    } catch (IOException e) {
      throw new MisconfiguredPathException(
          "migd.dra.proc-root",
          bootIdFile + " cannot be read (" + e + "); it must name a /proc of the host's boot",
          e);
    }
  }

  private static void check(Stored stored) {
    if (stored == null
        || stored.formatVersion() == null
        || stored.checksum() == null
        || stored.bootId() == null
        || stored.claims() == null) {
      throw new IllegalArgumentException("a part is missing or null");
    }
    if (stored.formatVersion() != FORMAT_VERSION) {
      throw new IllegalArgumentException("unknown format version " + stored.formatVersion());
    }
    String expected = checksum(new Body(stored.bootId(), stored.claims()));
    if (!expected.equals(stored.checksum())) {
      throw new IllegalArgumentException(
          "checksum " + stored.checksum() + " does not match its content (" + expected + ")");
    }
  }

  private static Loaded corrupt(Path file, Exception e) {
    Path aside = file.resolveSibling(FILE_NAME + ".corrupt");
    String reason =
        e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().get();
    try {
      Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException moving) {
      throw new UncheckedIOException("moving the corrupt checkpoint " + file + " aside", moving);
    }
    return new Loaded.Corrupt(reason, aside);
  }

  /** What was found when it was opened. */
  public Loaded loaded() {
    return loaded;
  }

  /** The claim of this UID, if the checkpoint holds it. */
  public Optional<CheckpointClaim> get(String uid) {
    return Optional.ofNullable(claims.get(uid));
  }

  /** Records the claim (replacing its earlier record) and writes the file through. */
  public void put(CheckpointClaim claim) {
    long mine;
    synchronized (changing) {
      var next = new LinkedHashMap<>(claims);
      next.put(claim.claim().uid(), claim);
      claims = next;
      mine = ++version;
    }
    writeThrough(mine);
  }

  /**
   * Records the claim in memory only: every reader sees it at once, and the file gets it with the
   * next write through. For a record a crash may lose: a prepare's start, until NVML is about to
   * change (one that changes nothing leaves nothing to undo, and waits for one write, not two).
   */
  public void hold(CheckpointClaim claim) {
    synchronized (changing) {
      var next = new LinkedHashMap<>(claims);
      next.put(claim.claim().uid(), claim);
      claims = next;
      ++version;
    }
  }

  /**
   * Replaces the claim's record by {@code change} of it and writes the file through, as one step
   * against every other change: nothing happens for a claim the checkpoint no longer holds (it is
   * never brought back), nor when {@code change} gives the record back as it was.
   */
  public void update(String uid, UnaryOperator<CheckpointClaim> change) {
    long mine;
    synchronized (changing) {
      CheckpointClaim known = claims.get(uid);
      if (known == null) {
        return;
      }
      CheckpointClaim changed = change.apply(known);
      if (changed.equals(known)) {
        return;
      }
      var next = new LinkedHashMap<>(claims);
      next.put(uid, changed);
      claims = next;
      mine = ++version;
    }
    writeThrough(mine);
  }

  /** Forgets the claim and writes the file through; nothing happens for an unknown claim. */
  public void remove(String uid) {
    long mine;
    synchronized (changing) {
      if (!claims.containsKey(uid)) {
        return;
      }
      var next = new LinkedHashMap<>(claims);
      next.remove(uid);
      claims = next;
      mine = ++version;
    }
    writeThrough(mine);
  }

  /**
   * Writes the newest content unless a writer already wrote it or a later one. Only writers of this
   * file wait for {@code writing}; readers take the memory copy.
   */
  private void writeThrough(long mine) {
    writing.lock();
    try {
      if (written >= mine) {
        return;
      }
      Map<String, CheckpointClaim> now;
      long at;
      synchronized (changing) {
        now = claims;
        at = version;
      }
      var stored = now.values().stream().map(CheckpointFormat::toStored).toList();
      var body = new Body(bootId, stored);
      String text =
          JSON.writerWithDefaultPrettyPrinter()
              .writeValueAsString(new Stored(FORMAT_VERSION, checksum(body), bootId, stored));
      // void after a reboot (a different boot id drops it): atomic against migd's own crash only
      AtomicFiles.writeForThisBoot(file, text);
      written = at;
    } catch (IOException e) {
      throw new UncheckedIOException("writing the DRA checkpoint " + file, e);
    } finally {
      writing.unlock();
    }
  }

  @Override
  public List<CheckpointClaim> claims() {
    return List.copyOf(claims.values());
  }

  private static String checksum(Body body) {
    try {
      byte[] bytes = JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
