package io.migd.mps;

import java.util.List;

/**
 * An MPS control daemon migd runs or adopted.
 *
 * @param device the device it serves
 * @param pid its process, 0 while a start failed and the next check retries it
 * @param servers the MPS servers it reported last ({@code get_server_list})
 */
record RunningDaemon(MpsDevice device, long pid, List<Integer> servers) {}
