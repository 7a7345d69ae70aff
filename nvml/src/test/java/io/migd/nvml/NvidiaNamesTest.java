package io.migd.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** NVML's enum values and the names NVIDIA's tools publish for them (go-nvlib). */
class NvidiaNamesTest {

  @Test
  void namesBrandsAsNvidiasDriverPublishesThem() {
    assertThat(GpuBrand.of(14).nvidiaName()).isEqualTo("Nvidia");
    assertThat(GpuBrand.of(2).nvidiaName()).isEqualTo("Tesla");
    assertThat(GpuBrand.of(13).nvidiaName()).isEqualTo("NvidiaRTX");
    assertThat(GpuBrand.of(11).nvidiaName()).isEqualTo("NvidiaCloudGaming");
    assertThat(GpuBrand.of(99)).isEqualTo(GpuBrand.UNKNOWN);
  }

  @Test
  void namesArchitecturesAsNvidiasDriverPublishesThem() {
    assertThat(GpuArchitecture.of(7).nvidiaName()).isEqualTo("Ampere");
    assertThat(GpuArchitecture.of(8).nvidiaName()).isEqualTo("Ada Lovelace");
    assertThat(GpuArchitecture.of(9).nvidiaName()).isEqualTo("Hopper");
    assertThat(GpuArchitecture.of(10).nvidiaName()).isEqualTo("Blackwell");
    assertThat(GpuArchitecture.of(0xFFFF_FFFF)).isEqualTo(GpuArchitecture.UNKNOWN);
    assertThat(GpuArchitecture.of(11).nvidiaName()).isEqualTo("Unknown");
  }

  @Test
  void decodesTheCudaDriverVersion() {
    assertThat(CudaVersion.ofDriverValue(13000)).hasToString("13.0");
    assertThat(CudaVersion.ofDriverValue(12040)).hasToString("12.4");
    assertThat(CudaVersion.ofDriverValue(12080)).isEqualTo(new CudaVersion(12, 8));
  }
}
