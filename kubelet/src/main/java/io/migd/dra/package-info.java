/**
 * The kubelet side of DRA mode: the plugin registration server, the DRA service (v1 and v1beta1
 * from one {@link io.migd.dra.ClaimPreparation}) and the resource health stream, over unix sockets.
 */
package io.migd.dra;
