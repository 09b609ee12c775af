// Small checks for handler arguments. Both transports carry untrusted JSON (a page could be
// compromised), so every handler checks its argument before touching the core.
import { ArgumentError } from "./envelope";
import { isPlainObject } from "../../shared/unknown-value";

export function objectArg(channel: string, arg: unknown): Record<string, unknown> {
  if (!isPlainObject(arg)) throw new ArgumentError(`${channel} needs an object argument.`);
  return arg;
}

export function noArg(channel: string, arg: unknown): void {
  if (arg !== undefined && arg !== null && !(isPlainObject(arg) && Object.keys(arg).length === 0)) {
    throw new ArgumentError(`${channel} takes no argument.`);
  }
}

export function stringField(channel: string, arg: Record<string, unknown>, key: string, max = 4096): string {
  const value = arg[key];
  if (typeof value !== "string" || value === "") throw new ArgumentError(`${channel} needs "${key}" as a non-empty string.`);
  if (value.length > max) throw new ArgumentError(`${channel}: "${key}" is longer than ${max} characters.`);
  return value;
}

export function booleanField(channel: string, arg: Record<string, unknown>, key: string): boolean {
  const value = arg[key];
  if (typeof value !== "boolean") throw new ArgumentError(`${channel} needs "${key}" as true or false.`);
  return value;
}

/** `key` of `input` as a plain object; absent means {} (nothing filled in yet). */
export function objectField(channel: string, input: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = input[key] ?? {};
  if (!isPlainObject(value)) throw new ArgumentError(`${channel}: "${key}" must be an object.`);
  return value;
}
