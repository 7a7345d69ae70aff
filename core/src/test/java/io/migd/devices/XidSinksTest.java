package io.migd.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The XID watcher's sinks (the kubelet surface, then the node snapshot) are told one by one. */
class XidSinksTest {
  @Test
  void aSinkThatThrowsDoesNotKeepTheNextFromHearingOfTheXid() {
    var heard = new ArrayList<String>();
    XidWatcher.Sink all =
        XidWatcher.Sink.all(
            List.of(
                xid -> {
                  heard.add("surface");
                  throw new IllegalStateException("the surface failed");
                },
                xid -> heard.add("snapshot " + xid.gpu())));

    all.xid(new XidWatcher.Xid(new GpuIndex(3), Usage.WHOLE_GPU, 79));

    assertThat(heard).containsExactly("surface", "snapshot 3");
  }
}
