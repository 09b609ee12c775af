// Which of the page's views is on screen.
export type View = "inbox" | "servers" | "tasks" | "agents" | "history" | "settings";

export class Nav {
  view = $state<View>("inbox");

  go(view: View): void {
    this.view = view;
  }
}
