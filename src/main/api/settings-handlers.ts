// The Settings view's channels: read the settings, pause or resume notifications, start at login,
// rotate the gateway token, and keep or forget a named secret in the keychain (SettingsState in
// settings-state.ts holds the value every view reads).
import type { HandlerMap, InvokeMap } from "../../shared/contract";
import { ArgumentError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { booleanField, noArg, objectArg, stringField } from "../rpc/validate";
import { GATEWAY_TOKEN_SECRET, SECRET_NAME, type SecretStore } from "../secrets";
import type { SettingsState } from "./settings-state";

export type SettingsChannel =
  | "settings:get"
  | "settings:pauseNotifications"
  | "settings:resumeNotifications"
  | "settings:startAtLogin"
  | "gateway:rotateToken"
  | "secrets:set"
  | "secrets:delete";
export type SettingsHandlers = HandlerMap<Pick<InvokeMap, SettingsChannel>>;

export interface SettingsHandlerDeps {
  settings: SettingsState;
  secrets: SecretStore;
  rotateToken: () => Promise<string>;
}

const MAX_SECRET_BYTES = 64 * 1024;
const MAX_PAUSE_MINUTES = 7 * 24 * 60;

export function createSettingsHandlers({ settings, secrets, rotateToken }: SettingsHandlerDeps): SettingsHandlers {
  return defineHandlers<Pick<InvokeMap, SettingsChannel>>({
    "settings:get": async (arg) => {
      noArg("settings:get", arg);
      return settings.get();
    },

    "settings:pauseNotifications": async (arg) => {
      const input = objectArg("settings:pauseNotifications", arg);
      const minutes = input.minutes;
      if (minutes !== null && (typeof minutes !== "number" || !Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_PAUSE_MINUTES)) {
        throw new ArgumentError(`settings:pauseNotifications needs "minutes" between 0 and ${MAX_PAUSE_MINUTES}, or null (until resumed).`);
      }
      return settings.pause(minutes);
    },

    "settings:resumeNotifications": async (arg) => {
      noArg("settings:resumeNotifications", arg);
      return settings.resume();
    },

    "settings:startAtLogin": async (arg) => {
      const input = objectArg("settings:startAtLogin", arg);
      return settings.setStartAtLogin(booleanField("settings:startAtLogin", input, "enabled"));
    },

    "gateway:rotateToken": async (arg) => {
      noArg("gateway:rotateToken", arg);
      const token = await rotateToken();
      settings.changed();
      return { token };
    },

    "secrets:set": async (arg) => {
      const input = objectArg("secrets:set", arg);
      const name = stringField("secrets:set", input, "name", 128);
      if (!SECRET_NAME.test(name)) throw new ArgumentError("A secret's name uses letters, digits, '_', '-' and '.' only.");
      if (name === GATEWAY_TOKEN_SECRET) throw new ArgumentError(`"${name}" is the gateway token; rotate it instead.`);
      const value = input.value;
      if (typeof value !== "string" || value === "") throw new ArgumentError('secrets:set needs "value" as a non-empty string.');
      if (Buffer.byteLength(value) > MAX_SECRET_BYTES) throw new ArgumentError("A secret's value is at most 64 KiB.");
      await secrets.set(name, value);
      return settings.refreshSecretNames();
    },

    "secrets:delete": async (arg) => {
      const input = objectArg("secrets:delete", arg);
      const name = stringField("secrets:delete", input, "name", 128);
      if (name === GATEWAY_TOKEN_SECRET) throw new ArgumentError(`"${name}" is the gateway token; rotate it instead.`);
      await secrets.delete(name);
      return settings.refreshSecretNames();
    },
  });
}
