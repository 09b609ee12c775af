// The whole App with the fake API, opened on the Servers view: the one set-up of the Servers-view
// tests, and how they find a server's card.
import { fireEvent, render, screen } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, ok, type FakeApi } from "./fake-api";
import type { ServerView } from "../../src/shared/types";

export async function openServers(list: ServerView[], overrides: Parameters<typeof fakeApi>[0] = {}): Promise<FakeApi> {
  const api = fakeApi({ "servers:list": async () => ok(list), ...overrides });
  render(App, { props: { connection: { api, mode: "electron" } } });
  await fireEvent.click(screen.getByRole("button", { name: "Servers" }));
  await screen.findByRole("list", { name: "Servers" });
  return api;
}

export const card = (name: string) => screen.getByRole("heading", { name, level: 2 }).closest("article")! as HTMLElement;
