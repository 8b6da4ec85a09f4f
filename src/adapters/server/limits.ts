/** The service's default limits, apart from the app so that naming them (the CLI's help) loads no server. */

/** The largest request body the service takes by default, in bytes (larger: 413). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
