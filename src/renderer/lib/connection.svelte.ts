// Browser mode's link to main as the page shows it: up or down, whether it was ever up, and whether
// main refuses this page's session (token rotated, companion restarted with a new one).
export class ConnectionState {
  connected = $state(true);
  everConnected = $state(false);
  /** Main refuses this page's session: only a new token helps, not waiting. */
  sessionRefused = $state(false);

  /** The WebSocket came up or went down. */
  linked(connected: boolean): void {
    this.connected = connected;
    if (connected) {
      this.everConnected = true;
      this.sessionRefused = false;
    } else void this.#probeSession();
  }

  // A refused upgrade looks like any dropped socket; asking for the page itself tells a refused
  // session (401: token rotated, companion restarted with a new one) from a companion that is down.
  async #probeSession(): Promise<void> {
    try {
      const response = await fetch(location.pathname, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
      this.sessionRefused = response.status === 401 || response.status === 403;
    } catch {
      this.sessionRefused = false;
    }
  }
}
