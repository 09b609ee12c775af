import { describe, expect, it, vi } from "vitest";
import type { MenuItemConstructorOptions } from "electron";
import type { ServerView } from "../../../../src/shared/types";
import type { PendingEntry } from "../../../../src/shared/types";
import { MAX_LISTED_QUESTIONS, trayMenuTemplate, trayTooltip, type TrayActions, type TrayState } from "../../../../src/main/desktop/tray-menu";
import { TrayService, type TrayLike } from "../../../../src/main/desktop/tray";
import { trayIconFile } from "../../../../src/main/desktop/icons";

function entry(id: string, prompt: string, server?: string, agent?: string): PendingEntry {
  return { request: { id, kind: "input", prompt, data: { schema: {} } }, source: { ...(server ? { server } : {}), ...(agent ? { agent } : {}) }, receivedAt: 0 };
}
function server(name: string, state: ServerView["state"], error?: string): ServerView {
  return { name, state, toolCount: 0, tools: [], ...(error ? { error } : {}) };
}
function actions() {
  return {
    openQuestion: vi.fn<TrayActions["openQuestion"]>(),
    openWindow: vi.fn<TrayActions["openWindow"]>(),
    pauseNotifications: vi.fn<TrayActions["pauseNotifications"]>(),
    resumeNotifications: vi.fn<TrayActions["resumeNotifications"]>(),
    setStartAtLogin: vi.fn<TrayActions["setStartAtLogin"]>(),
    quit: vi.fn<TrayActions["quit"]>(),
  } satisfies TrayActions;
}
const settings = { notificationsPaused: false, startAtLogin: false };
const click = (item: MenuItemConstructorOptions | undefined, checked?: boolean) =>
  (item?.click as unknown as (menuItem: { checked?: boolean }) => void)({ checked });
const byId = (items: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions | undefined => {
  for (const item of items) {
    if (item.id === id) return item;
    if (Array.isArray(item.submenu)) {
      const found = byId(item.submenu, id);
      if (found) return found;
    }
  }
  return undefined;
};

describe("trayMenuTemplate", () => {
  const state: TrayState = {
    pending: [entry("elc-1", "Which repository?", "github", "claude-code"), entry("elc-2", "", undefined, "builder")],
    servers: [server("github", "connected"), server("jira", "failed", "spawn jira-mcp ENOENT"), server("slack", "disabled")],
    settings,
  };

  it("lists the pending questions with who asks, then servers, then the app items", () => {
    const menu = trayMenuTemplate(state, actions());
    const labels = menu.map((i) => i.label ?? i.type);
    expect(labels).toEqual([
      "2 questions waiting",
      "github (via claude-code): Which repository?",
      "builder: a question",
      "separator",
      "Servers",
      "separator",
      "Open Companion",
      "Pause notifications",
      "Start at login",
      "separator",
      "Quit",
    ]);
    const servers = byId(menu, "server:jira");
    expect(servers?.label).toBe("✕ jira (failed — spawn jira-mcp ENOENT)");
    expect(byId(menu, "server:github")?.label).toBe("● github (connected)");
    expect(byId(menu, "server:slack")?.label).toBe("○ slack (disabled)");
  });

  it("clicking a question opens that question", () => {
    const a = actions();
    click(byId(trayMenuTemplate(state, a), "question:elc-2"));
    expect(a.openQuestion).toHaveBeenCalledWith("elc-2");
  });

  it("says so when nothing waits and no server is configured", () => {
    const menu = trayMenuTemplate({ pending: [], servers: [], settings }, actions());
    expect(menu[0]).toMatchObject({ label: "No questions waiting", enabled: false });
    expect(menu.some((i) => i.label === "No servers configured")).toBe(true);
  });

  it("caps the listed questions and offers the rest in the window", () => {
    const many = Array.from({ length: MAX_LISTED_QUESTIONS + 3 }, (_, i) => entry(`q${i}`, `question ${i}`, "github"));
    const a = actions();
    const menu = trayMenuTemplate({ pending: many, servers: [], settings }, a);
    expect(menu.filter((i) => i.id?.startsWith("question:"))).toHaveLength(MAX_LISTED_QUESTIONS);
    const more = menu.find((i) => i.label === "…and 3 more");
    click(more);
    expect(a.openWindow).toHaveBeenCalled();
  });

  it("truncates long prompts", () => {
    const menu = trayMenuTemplate({ pending: [entry("x", "a ".repeat(200), "s")], servers: [], settings }, actions());
    expect(String(menu[1].label).length).toBeLessThanOrEqual("s: ".length + 60);
    expect(String(menu[1].label).endsWith("…")).toBe(true);
  });

  it("pause submenu: 1 hour, until resumed, resume (enabled only while paused)", () => {
    const a = actions();
    const menu = trayMenuTemplate(state, a);
    click(byId(menu, "pause:hour"));
    click(byId(menu, "pause:forever"));
    expect(a.pauseNotifications.mock.calls).toEqual([[60], [null]]);
    expect(byId(menu, "pause:resume")?.enabled).toBe(false);

    const now = new Date(2026, 0, 1, 10, 0).getTime();
    const paused = trayMenuTemplate({ ...state, settings: { ...settings, notificationsPaused: true, pausedUntil: now + 3_600_000 } }, a, now);
    expect(byId(paused, "pause")?.label).toBe("Notifications paused until 11:00");
    expect(byId(paused, "pause:resume")?.enabled).toBe(true);
    click(byId(paused, "pause:resume"));
    expect(a.resumeNotifications).toHaveBeenCalled();

    const forever = trayMenuTemplate({ ...state, settings: { ...settings, notificationsPaused: true } }, a);
    expect(byId(forever, "pause")?.label).toBe("Notifications paused");
  });

  it("start at login is a checkbox reflecting the setting; open and quit do what they say", () => {
    const a = actions();
    const menu = trayMenuTemplate({ ...state, settings: { ...settings, startAtLogin: true } }, a);
    const item = byId(menu, "start-at-login");
    expect(item).toMatchObject({ type: "checkbox", checked: true });
    click(item, false);
    expect(a.setStartAtLogin).toHaveBeenCalledWith(false);
    click(byId(menu, "open"));
    expect(a.openWindow).toHaveBeenCalled();
    click(byId(menu, "quit"));
    expect(a.quit).toHaveBeenCalled();
  });

  it("tooltip counts questions and mentions a pause", () => {
    expect(trayTooltip(0, false)).toBe("Toolnexus Companion — nothing waiting");
    expect(trayTooltip(1, false)).toBe("Toolnexus Companion — 1 question waiting");
    expect(trayTooltip(3, true)).toBe("Toolnexus Companion — 3 questions waiting (notifications paused)");
  });
});

function fakeTray() {
  const calls: Record<string, unknown[]> = { tooltip: [], title: [], image: [], menu: [] };
  let onClick: (() => void) | undefined;
  const tray: TrayLike & { click(): void; destroyed: boolean } = {
    setToolTip: (t) => void calls.tooltip.push(t),
    setTitle: (t) => void calls.title.push(t),
    setImage: (i) => void calls.image.push(i),
    setContextMenu: (m) => void calls.menu.push(m),
    on: (_e, l) => {
      onClick = l;
    },
    destroy() {
      this.destroyed = true;
    },
    click: () => onClick?.(),
    destroyed: false,
  };
  return { tray, calls };
}

describe("TrayService", () => {
  function setup(opts: { dark?: boolean; template?: boolean } = {}) {
    const { tray, calls } = fakeTray();
    let dark = opts.dark ?? false;
    const badge = vi.fn();
    const a = actions();
    const created: string[] = [];
    const service = new TrayService({
      createTray: (icon) => {
        created.push(icon);
        return tray;
      },
      buildMenu: (template) => ({ template }),
      iconPath: (variant, attention) => trayIconFile(variant, attention),
      useTemplateIcon: opts.template ?? false,
      isDarkTheme: () => dark,
      setBadgeCount: badge,
      actions: a,
    });
    return { service, tray, calls, badge, actions: a, created, setDark: (d: boolean) => (dark = d) };
  }

  it("shows the pending count in tooltip, title and badge, and the attention icon", () => {
    const t = setup();
    t.service.start({ servers: [server("github", "connected")] });
    expect(t.created).toEqual(["tray-light.png"]);
    expect(t.calls.title.at(-1)).toBe("");
    expect(t.badge).toHaveBeenLastCalledWith(0);

    t.service.update({ pending: [entry("a", "p", "github"), entry("b", "q", "github")] });
    expect(t.calls.tooltip.at(-1)).toBe("Toolnexus Companion — 2 questions waiting");
    expect(t.calls.title.at(-1)).toBe("2");
    expect(t.badge).toHaveBeenLastCalledWith(2);
    expect(t.calls.image.at(-1)).toBe("tray-light-attention.png");
    const menu = (t.calls.menu.at(-1) as { template: MenuItemConstructorOptions[] }).template;
    expect(menu[0].label).toBe("2 questions waiting");
  });

  it("follows the system theme, or uses the template image on macOS", () => {
    const t = setup();
    t.service.start();
    t.setDark(true);
    t.service.themeChanged();
    expect(t.calls.image.at(-1)).toBe("tray-dark.png");
    const mac = setup({ template: true });
    mac.service.start({ pending: [entry("a", "p", "s")] });
    expect(mac.created).toEqual(["trayAttentionTemplate.png"]);
  });

  it("a paused state shows in the tooltip and the menu, and the count still updates", () => {
    const t = setup();
    t.service.start({ settings: { notificationsPaused: true, startAtLogin: false } });
    t.service.update({ pending: [entry("a", "p", "s")] });
    expect(t.calls.tooltip.at(-1)).toBe("Toolnexus Companion — 1 question waiting (notifications paused)");
    expect(t.calls.title.at(-1)).toBe("1");
  });

  it("a tray click opens the window; destroy removes the icon", () => {
    const t = setup();
    t.service.start();
    t.tray.click();
    expect(t.actions.openWindow).toHaveBeenCalled();
    t.service.destroy();
    expect(t.tray.destroyed).toBe(true);
    t.service.update({ pending: [] });
  });
});
