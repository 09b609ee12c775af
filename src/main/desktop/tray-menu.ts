// The tray menu as data: built from the pending questions, servers and settings, so it is tested
// without a display. Electron turns the template into a native menu.
import { isSignIn } from "../../shared/words";
import type { MenuItemConstructorOptions } from "electron";
import type { Settings } from "../../shared/contract";
import type { ServerView } from "../../shared/types";
import type { PendingEntry, ServerState } from "../../shared/types";
import { askerLabel, questionsText, truncate } from "./labels";

export interface TrayState {
  pending: PendingEntry[];
  servers: ServerView[];
  settings: Pick<Settings, "notificationsPaused" | "pausedUntil" | "startAtLogin">;
}

export interface TrayActions {
  openQuestion(id: string): void;
  openWindow(): void;
  pauseNotifications(minutes: number | null): void;
  resumeNotifications(): void;
  setStartAtLogin(enabled: boolean): void;
  quit(): void;
}

/** Questions listed by name in the menu; the rest are one "more" item that opens the window. */
export const MAX_LISTED_QUESTIONS = 10;

const STATE_MARK: Record<ServerState, string> = { connecting: "◌", connected: "●", disabled: "○", failed: "✕", "needs-sign-in": "⚠", restarting: "↻", "crash-loop": "✕" };

function questionLabel(entry: PendingEntry): string {
  const prompt = entry.request.prompt.trim() || (isSignIn(entry.request) ? "sign in" : entry.request.kind === "authorization" ? "open a link" : "a question");
  return `${askerLabel(entry.source)}: ${truncate(prompt, 60)}`;
}

function serverLabel(server: ServerView): string {
  const detail = server.state === "failed" ? `failed${server.error ? ` — ${truncate(server.error, 40)}` : ""}` : server.state;
  return `${STATE_MARK[server.state]} ${server.name} (${detail})`;
}

export function trayTooltip(pendingCount: number, paused: boolean): string {
  const base = pendingCount === 0 ? "Toolnexus Companion — nothing waiting" : `Toolnexus Companion — ${questionsText(pendingCount)} waiting`;
  return paused ? `${base} (notifications paused)` : base;
}

function pausedLabel(settings: TrayState["settings"], now: number): string {
  if (!settings.notificationsPaused) return "Pause notifications";
  if (settings.pausedUntil === undefined) return "Notifications paused";
  const until = new Date(settings.pausedUntil);
  const hhmm = `${String(until.getHours()).padStart(2, "0")}:${String(until.getMinutes()).padStart(2, "0")}`;
  return settings.pausedUntil > now ? `Notifications paused until ${hhmm}` : "Pause notifications";
}

export function trayMenuTemplate(state: TrayState, actions: TrayActions, now: number = Date.now()): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [];
  const { pending, servers, settings } = state;

  if (pending.length === 0) {
    items.push({ label: "No questions waiting", enabled: false });
  } else {
    items.push({ label: `${questionsText(pending.length)} waiting`, enabled: false });
    for (const entry of pending.slice(0, MAX_LISTED_QUESTIONS)) {
      const id = entry.request.id;
      items.push({ id: `question:${id}`, label: questionLabel(entry), click: () => actions.openQuestion(id) });
    }
    if (pending.length > MAX_LISTED_QUESTIONS) {
      items.push({ label: `…and ${pending.length - MAX_LISTED_QUESTIONS} more`, click: () => actions.openWindow() });
    }
  }

  items.push({ type: "separator" });
  if (servers.length === 0) {
    items.push({ label: "No servers configured", enabled: false });
  } else {
    items.push({
      label: "Servers",
      submenu: servers.map((server) => ({ id: `server:${server.name}`, label: serverLabel(server), click: () => actions.openWindow() })),
    });
  }

  const paused = settings.notificationsPaused && (settings.pausedUntil === undefined || settings.pausedUntil > now);
  items.push(
    { type: "separator" },
    { id: "open", label: "Open Companion", click: () => actions.openWindow() },
    {
      id: "pause",
      label: pausedLabel(settings, now),
      submenu: [
        { id: "pause:hour", label: "For 1 hour", click: () => actions.pauseNotifications(60) },
        { id: "pause:forever", label: "Until resumed", click: () => actions.pauseNotifications(null) },
        { id: "pause:resume", label: "Resume", enabled: paused, click: () => actions.resumeNotifications() },
      ],
    },
    {
      id: "start-at-login",
      label: "Start at login",
      type: "checkbox",
      checked: settings.startAtLogin,
      click: (item) => actions.setStartAtLogin(item.checked),
    },
    { type: "separator" },
    { id: "quit", label: "Quit", click: () => actions.quit() },
  );
  return items;
}
