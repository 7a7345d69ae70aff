/**
 * The JSON records of migd's REST API under {@code /api/v1}: what {@code PUT /api/v1/layout}
 * accepts and what every call answers. Plain records, so the daemon and the command line ({@code
 * migd plan -o json}) write the same shapes.
 */
package io.migd.api.rest;
