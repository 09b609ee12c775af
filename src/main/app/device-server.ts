// Answering from another device, composed: the devices feature's service with its listener, each
// paired device's WebSocket served the allow-listed handlers (devices/allow-list.ts) and only the
// Inbox's events, and who answered on which device handed to History. The loopback listener
// (companion-server.ts) is untouched by all of it: a device key means nothing there, and the
// gateway token and the page's cookie mean nothing here.
import type { WebSocket } from "ws";
import type { Handlers } from "../api/handlers";
import { createWsServer, type WsCore, type WsServer } from "../api/ws-server";
import { deviceHandlers } from "../devices/allow-list";
import { createDevicesHandlers, devicesOffHandlers, type DevicesHandlers } from "../devices/handlers";
import { DeviceService, type DeviceServiceOptions } from "../devices/service";
import type { StoredDevice } from "../devices/book";
import type { DevicesState } from "../../shared/devices";
import type { CoreEvents } from "./core-events";

/** Which device is answering which question, while its answer runs: History asks as it records. */
export interface Attribution {
  during<T>(id: string, device: string, run: () => Promise<T>): Promise<T>;
  /** The device answering question `id` right now, if one is. */
  of(id: string): string | undefined;
}

export function createAttribution(): Attribution {
  const answering = new Map<string, string>();
  return {
    async during(id, device, run) {
      answering.set(id, device);
      try {
        return await run();
      } finally {
        answering.delete(id);
      }
    },
    of: (id) => answering.get(id),
  };
}

export interface DeviceParts {
  /** Absent when this run keeps no devices. */
  service?: DeviceService;
  handlers: DevicesHandlers;
  /** Starts the listener when the kept setting has it on. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface DevicePartsOptions extends Partial<Pick<DeviceServiceOptions, "dir" | "staticDir" | "now" | "addresses" | "listener">> {
  log: (line: string) => void;
  /** The core's handlers (read when a device connects: they exist by then). */
  handlers: () => Handlers;
  events: CoreEvents;
  attribution: Attribution;
  /** Settings' view of the devices changed. */
  changed(state: DevicesState): void;
}

/** The events a device's page hears: the Inbox's, nothing else (no settings, no servers). */
function inboxEventsOnly(events: CoreEvents): WsCore["events"] {
  return {
    on: (channel, listener) => (channel === "inbox:event" ? events.on(channel, listener) : () => {}),
  };
}

/** What the core is told of devices (CoreOptions.devices). */
export type DevicesOptionsOfCore = Pick<DevicePartsOptions, "dir" | "staticDir" | "now" | "addresses" | "listener">;

/** The devices part of the core; without a folder and a page to serve, its channels say it is off. */
export function openDevices(options: DevicePartsOptions): DeviceParts {
  const { dir, staticDir } = options;
  if (!dir || !staticDir) return { handlers: devicesOffHandlers(), start: async () => {}, close: async () => {} };
  // One WebSocket server per device: its sockets are closed together when it is revoked.
  const sessions = new Map<string, WsServer>();
  const sessionOf = (device: StoredDevice): WsServer => {
    let server = sessions.get(device.id);
    if (!server) {
      const allowed = deviceHandlers(options.handlers(), {
        answering: (id, run) => options.attribution.during(id, device.name, run),
      });
      // Every call is the device being seen (saved at most once a minute: devices/paired.ts).
      const handlers = Object.fromEntries(
        Object.entries(allowed).map(([channel, handler]) => [channel, (arg: unknown) => (service.devices.seen(device.id), handler(arg))]),
      ) as Handlers;
      server = createWsServer({ handlers, events: inboxEventsOnly(options.events) }, options.log);
      sessions.set(device.id, server);
    }
    return server;
  };
  const service = new DeviceService({
    dir,
    staticDir,
    log: options.log,
    ...(options.now ? { now: options.now } : {}),
    ...(options.addresses ? { addresses: options.addresses } : {}),
    ...(options.listener ? { listener: options.listener } : {}),
    onSocket: (ws: WebSocket, device: StoredDevice) => sessionOf(device).onSocket(ws),
  });
  service.devices.onRevoke((id) => {
    sessions.get(id)?.close();
    sessions.delete(id);
  });
  service.onState((state) => options.changed(state));
  return {
    service,
    handlers: createDevicesHandlers(service),
    start: async () => void (await service.start()),
    async close() {
      for (const server of sessions.values()) server.close();
      sessions.clear();
      await service.close();
    },
  };
}
