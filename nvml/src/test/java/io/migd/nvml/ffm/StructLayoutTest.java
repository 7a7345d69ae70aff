package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

// The raw layer's only guard: every struct layout against the x86-64 Linux ABI that gcc printed for
// NVML 13.3.29, kept in the repository as nvml-abi.json beside this test. Every struct of that file
// must have a layout here, with its size, alignment, every field offset, size and array length.
class StructLayoutTest {
  private static final JsonNode ABI = readAbi();

  private static JsonNode readAbi() {
    try (InputStream in = StructLayoutTest.class.getResourceAsStream("nvml-abi.json")) {
      if (in == null) {
        throw new IllegalStateException("nvml-abi.json is missing from the test resources");
      }
      return JsonMapper.builder().build().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // arrayLength 0: not an array. A dotted name is a member of a nested struct.
  record Field(String name, long offset, long size, long arrayLength, LongSupplier offsetAccessor) {
    PathElement[] path() {
      return Arrays.stream(name.split("\\."))
          .map(PathElement::groupElement)
          .toArray(PathElement[]::new);
    }

    boolean isNested() {
      return name.contains(".");
    }
  }

  record Struct(
      String name, Supplier<GroupLayout> layout, long size, long align, List<Field> fields) {
    @Override
    public String toString() {
      return name;
    }
  }

  record VersionMacro(
      String name,
      int value,
      LongSupplier sizeof,
      long structSize,
      int version,
      IntSupplier accessor) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A static no-argument method of a generated class (or its superclass), called reflectively. */
  private static Object call(Class<?> owner, String method) {
    try {
      Method m = null;
      for (Class<?> c = owner; m == null && c != null; c = c.getSuperclass()) {
        m =
            Arrays.stream(c.getDeclaredMethods())
                .filter(d -> d.getName().equals(method) && d.getParameterCount() == 0)
                .findFirst()
                .orElse(null);
      }
      if (m == null) {
        throw new NoSuchMethodException(method);
      }
      m.setAccessible(true);
      return m.invoke(null);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new AssertionError(owner.getSimpleName() + " has no " + method + "()", e);
    } catch (InvocationTargetException e) {
      throw new AssertionError(owner.getSimpleName() + "." + method + "() failed", e.getCause());
    }
  }

  private static Class<?> generated(String name) {
    try {
      return Class.forName(StructLayoutTest.class.getPackageName() + "." + name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError("no layout class for " + name + " of nvml-abi.json", e);
    }
  }

  // The offset accessor of a field; a dotted name adds the nested struct's own accessor.
  private static LongSupplier offsetAccessor(String struct, String field) {
    return () -> {
      Class<?> owner = generated(struct);
      if (!field.contains(".")) {
        return (long) call(owner, field + "$offset");
      }
      var parts = field.split("\\.");
      Class<?> nested = generated(struct + "$" + parts[0]);
      return (long) call(owner, parts[0] + "$offset") + (long) call(nested, parts[1] + "$offset");
    };
  }

  static Stream<Struct> structs() {
    var out = new ArrayList<Struct>();
    for (var entry : ABI.get("structs").properties()) {
      String name = entry.getKey();
      JsonNode struct = entry.getValue();
      var fields = new ArrayList<Field>();
      for (JsonNode f : struct.get("fields")) {
        String field = f.get("name").asString();
        long length = f.has("array_length") ? f.get("array_length").asLong() : 0;
        fields.add(
            new Field(
                field,
                f.get("offset").asLong(),
                f.get("size").asLong(),
                length,
                offsetAccessor(name, field)));
      }
      out.add(
          new Struct(
              name,
              () -> (GroupLayout) call(generated(name), "layout"),
              struct.get("size").asLong(),
              struct.get("align").asLong(),
              List.copyOf(fields)));
    }
    return out.stream();
  }

  static Stream<VersionMacro> versionMacros() {
    var out = new ArrayList<VersionMacro>();
    for (var entry : ABI.get("version_macros").properties()) {
      String name = entry.getKey();
      JsonNode m = entry.getValue();
      out.add(
          new VersionMacro(
              name,
              m.get("value").asInt(),
              () -> (long) call(generated(name + "_t"), "sizeof"),
              m.get("struct_size").asLong(),
              m.get("version").asInt(),
              () -> (int) call(nvml_h.class, name)));
    }
    return out.stream();
  }

  @Test
  void readsEveryStructAndVersionMacroOfTheAbi() {
    assertThat(structs().map(Struct::name)).hasSize(33).doesNotHaveDuplicates();
    assertThat(versionMacros()).hasSize(9);
    assertThat(ABI.at("/header/nvml_version_banner").asString()).isEqualTo("13.3.29");
  }

  @ParameterizedTest
  @MethodSource("structs")
  void hasALayoutClass(Struct s) {
    assertThat(s.layout().get()).isNotNull();
    assertThat(s.fields()).isNotEmpty();
  }

  @ParameterizedTest
  @MethodSource("structs")
  void hasTheCSizeAndAlignment(Struct s) {
    var layout = s.layout().get();
    assertThat(layout.name()).contains(s.name());
    assertThat(layout.byteSize()).as("size").isEqualTo(s.size());
    assertThat(layout.byteAlignment()).as("alignment").isEqualTo(s.align());
  }

  @ParameterizedTest
  @MethodSource("structs")
  void placesEveryFieldAtItsCOffset(Struct s) {
    var layout = s.layout().get();
    var softly = new SoftAssertions();
    for (var f : s.fields()) {
      var member = layout.select(f.path());
      softly
          .assertThat(f.offsetAccessor().getAsLong())
          .as("%s$offset()", f.name())
          .isEqualTo(f.offset());
      softly
          .assertThat(layout.byteOffset(f.path()))
          .as("byteOffset(%s)", f.name())
          .isEqualTo(f.offset());
      softly.assertThat(member.byteSize()).as("size of %s", f.name()).isEqualTo(f.size());
      softly
          .assertThat(member instanceof SequenceLayout array ? array.elementCount() : 0L)
          .as("array length of %s", f.name())
          .isEqualTo(f.arrayLength());
    }
    softly.assertAll();
  }

  @ParameterizedTest
  @MethodSource("structs")
  void declaresExactlyTheCFieldsInOrder(Struct s) {
    var declared =
        s.layout().get().memberLayouts().stream()
            .filter(member -> !(member instanceof PaddingLayout))
            .map(member -> member.name().orElseThrow())
            .toList();
    var facts = s.fields().stream().filter(f -> !f.isNested()).map(Field::name).toList();
    assertThat(declared).isEqualTo(facts);
  }

  // Writes each field through its generated setter into a zeroed struct, then checks that exactly
  // the bytes C reads for that field changed and that the getter gives the value back.
  @ParameterizedTest
  @MethodSource("structs")
  void accessorsTouchOnlyTheBytesOfTheirField(Struct s) throws ReflectiveOperationException {
    var owner = Class.forName(StructLayoutTest.class.getPackageName() + "." + s.name());
    var softly = new SoftAssertions();
    try (var arena = Arena.ofConfined()) {
      for (var f : s.fields()) {
        var struct = arena.allocate(s.layout().get());
        var holder = owner;
        var target = struct;
        var member = f.name();
        if (f.isNested()) {
          var parts = f.name().split("\\.");
          var outerGetter = owner.getDeclaredMethod(parts[0], MemorySegment.class);
          target = (MemorySegment) outerGetter.invoke(null, struct);
          holder = Class.forName(owner.getName() + "$" + parts[0]);
          member = parts[1];
        }
        var getter = holder.getDeclaredMethod(member, MemorySegment.class);
        var what = f.name() + " at offset " + f.offset();
        if (s.layout().get().select(f.path()) instanceof ValueLayout scalar) {
          var value = sample(getter.getReturnType());
          holder
              .getDeclaredMethod(member, MemorySegment.class, getter.getReturnType())
              .invoke(null, target, value);
          softly.assertThat(read(struct, scalar, f.offset())).as(what).isEqualTo(value);
          softly.assertThat(getter.invoke(null, target)).as("getter of " + what).isEqualTo(value);
        } else {
          var slice = (MemorySegment) getter.invoke(null, target);
          softly.assertThat(slice.address() - struct.address()).as(what).isEqualTo(f.offset());
          softly.assertThat(slice.byteSize()).as("size of " + what).isEqualTo(f.size());
          var fill = arena.allocate(f.size()).fill((byte) 0x5A);
          holder
              .getDeclaredMethod(member, MemorySegment.class, MemorySegment.class)
              .invoke(null, target, fill);
        }
        for (long i = 0; i < struct.byteSize(); i++) {
          var inField = i >= f.offset() && i < f.offset() + f.size();
          softly
              .assertThat(struct.get(JAVA_BYTE, i) != 0)
              .as("byte %d changed after writing %s", i, what)
              .isEqualTo(inField);
        }
      }
    }
    softly.assertAll();
  }

  // Every byte of each sample is non-zero, so a short or misplaced write shows.
  private static Object sample(Class<?> type) {
    if (type == int.class) {
      return 0xA1B2C3D4;
    } else if (type == long.class) {
      return 0xA1B2C3D4E5F60718L;
    } else if (type == short.class) {
      return (short) 0xA1B2;
    } else if (type == double.class) {
      return Double.longBitsToDouble(0x4011223344556677L);
    } else if (type == MemorySegment.class) {
      return MemorySegment.ofAddress(0x0102030405060708L);
    }
    throw new IllegalArgumentException("no sample for " + type);
  }

  // Reads with the plain Java layouts, independent of the generated ones.
  private static Object read(MemorySegment struct, ValueLayout scalar, long offset) {
    return switch (scalar) {
      case ValueLayout.OfInt _ -> struct.get(JAVA_INT, offset);
      case ValueLayout.OfLong _ -> struct.get(JAVA_LONG, offset);
      case ValueLayout.OfShort _ -> struct.get(JAVA_SHORT, offset);
      case ValueLayout.OfDouble _ -> struct.get(JAVA_DOUBLE, offset);
      case AddressLayout _ -> struct.get(ADDRESS, offset);
      default -> throw new IllegalArgumentException("no C field of layout " + scalar);
    };
  }

  @Test
  void declaresProcessInfoExactlyLikeItsV2Alias() {
    assertThat(nvmlProcessInfo_t.layout().withoutName())
        .isEqualTo(nvmlProcessInfo_v2_t.layout().withoutName());
  }

  @ParameterizedTest
  @MethodSource("versionMacros")
  void versionMacroIsStructSizeWithVersionInTheTopByte(VersionMacro m) {
    assertThat(m.value()).isEqualTo((int) (m.structSize() | (long) m.version() << 24));
    assertThat(m.sizeof().getAsLong()).as("sizeof").isEqualTo(m.structSize());
    assertThat(m.accessor().getAsInt())
        .isEqualTo(m.value())
        .isEqualTo((int) (m.sizeof().getAsLong() | (long) m.version() << 24));
  }
}
