/** Serves the REST app on a port with Node's HTTP server (@hono/node-server). */

import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { refuseUnknownFields } from "../../core/unknown-fields.js";
import type { Service } from "./app.js";

/** A running server. */
export interface RunningServer {
  /** The address it answers at, e.g. http://127.0.0.1:8787. */
  url: string;
  port: number;
  /** Stops accepting connections and resolves when the open ones have ended. */
  close(): Promise<void>;
}

/** Hosts that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Listens on `host:port` (port 0: any free port) and resolves once it is listening.
 * @example const server = await startServer(createService({ mem, keys }), { port: 8787 });
 */
export function startServer(
  service: Service,
  options: { port: number; host?: string },
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    // A misspelt `host` would otherwise listen on the loopback default unseen.
    refuseUnknownFields(options, ["port", "host"], "startServer options");
    const server = serve(
      { fetch: service.app.fetch, port: options.port, hostname: host },
      (info: AddressInfo) => {
        const shown = info.family === "IPv6" ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${shown}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done, fail) => {
              server.close((error) => (error ? fail(error) : done()));
              (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
            }),
        });
      },
    );
    server.once("error", reject);
  });
}
