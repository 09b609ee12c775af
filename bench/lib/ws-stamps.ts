// An init script for the page benches: replaces the page's WebSocket with a subclass that stamps,
// in the page's clock (performance.now()), each invoke it sends and each message it receives,
// before the app's own handler runs. It splits a page round trip into "the wire and main" and
// "the page rendering". A string: tsx would wrap a function in a helper the page does not have.
//
// window.__ws.sent[channel]  = [{ id, at }]    invokes, newest last
// window.__ws.got[id]        = at              results by invoke id
// window.__ws.events[channel]= [at]            events, newest last
export const WS_STAMPS = `(() => {
  const Base = window.WebSocket;
  const log = { sent: {}, got: {}, events: {} };
  window.__ws = log;
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const at = performance.now();
        if (typeof event.data !== "string") return;
        const m = JSON.parse(event.data);
        if (m.t === "result") log.got[m.id] = at;
        else if (m.t === "event") (log.events[m.channel] = log.events[m.channel] || []).push(at);
      });
    }
    send(data) {
      if (typeof data === "string") {
        const m = JSON.parse(data);
        if (m.t === "invoke") (log.sent[m.channel] = log.sent[m.channel] || []).push({ id: m.id, at: performance.now() });
      }
      return super.send(data);
    }
  };
})()`;
