/**
 * What migd publishes as the node's DRA resource pool, in plain Java: devices (whole GPUs, static
 * MIG slices and, on dynamic GPUs, every profile at every placement), their attributes, capacity,
 * counters and taints, grouped into slices in the order the scheduler reads them. The fabric8 side
 * (ResourceSlice objects, generations, rate bounds) lives in the node module; this package only
 * says what the pool holds.
 */
package io.migd.pool;
