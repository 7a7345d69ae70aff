package io.migd.rest;

import io.migd.profiles.MigConfigFile;

/**
 * The config file as {@code serve} reads it while it runs (DESIGN section 13): read again every
 * {@code migd.config-file-poll}, so {@code GET /api/v1/configs} and the names a {@code PUT} may use
 * follow an edit.
 */
@FunctionalInterface
public interface ConfigFileNow {
  /** The file's configs as last read: its last valid content while it is invalid. */
  MigConfigFile file();
}
