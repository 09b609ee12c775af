// The desktop's Settings channels for answering from another device. Served by the loopback
// page and the desktop window only: none of them is on a device's allow-list (allow-list.ts).
import type { HandlerMap } from "../../shared/contract";
import type { DevicesInvokeMap } from "../../shared/devices";
import { HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { booleanField, noArg, objectArg, stringField } from "../rpc/validate";
import type { DeviceService } from "./service";

export type DevicesHandlers = HandlerMap<DevicesInvokeMap>;

async function refusedInWords<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HandlerError) throw error;
    throw new HandlerError("refused", (error as Error).message);
  }
}

export function createDevicesHandlers(service: DeviceService): DevicesHandlers {
  return defineHandlers<DevicesInvokeMap>({
    "devices:get": async (arg) => {
      noArg("devices:get", arg);
      return service.state();
    },
    "devices:configure": (arg) => refusedInWords(() => service.configure(arg)),
    "devices:startPairing": (arg) => {
      noArg("devices:startPairing", arg);
      return refusedInWords(() => service.startPairing());
    },
    "devices:confirm": async (arg) => {
      const input = objectArg("devices:confirm", arg);
      const id = stringField("devices:confirm", input, "id", 64);
      const ok = booleanField("devices:confirm", input, "ok");
      return refusedInWords(() => service.confirm(id, ok));
    },
    "devices:revoke": async (arg) => {
      const input = objectArg("devices:revoke", arg);
      const id = stringField("devices:revoke", input, "id", 64);
      return refusedInWords(() => service.revoke(id));
    },
  });
}

/** When this run keeps no devices (tests, an embedding without a data folder). */
export function devicesOffHandlers(): DevicesHandlers {
  const off = async (): Promise<never> => {
    throw new HandlerError("unavailable", "Answering from another device is not available in this run of the companion.");
  };
  return { "devices:get": off, "devices:configure": off, "devices:startPairing": off, "devices:confirm": off, "devices:revoke": off };
}
