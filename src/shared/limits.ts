// Every bound on data that comes into the companion, in one place, each with the reason for its
// number. Whatever arrives from a page, an agent or a server is checked against these before it is
// stored, serialised or shown (README "Security" lists them for people).

/** HTTP request bodies and WebSocket messages. A form answer or a Request (types.ts) is a few KiB;
 * 4 MiB leaves room for large schemas without letting one client make us buffer without end. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Nesting of any JSON value that arrives (bodies, WS messages, elicitation params, tool
 * schemas, tool results). Real MCP schemas are under 10 levels; `JSON.stringify` and the
 * structured clone of IPC throw a few thousand levels down. 64 is generous and far from both. */
export const MAX_JSON_DEPTH = 64;

/** Nodes (values) in one arriving JSON value: bounds the work of walking, cloning and
 * serialising it, whatever its byte size. 200k nodes is a ~4 MiB body of small values. */
export const MAX_JSON_NODES = 200_000;

/** A tool's `inputSchema` as kept and sent to pages: a schema over 256 KiB is not a form a
 * person runs by hand, and each page load serialises every tool's schema. */
export const MAX_TOOL_SCHEMA_BYTES = 256 * 1024;

/** Tools kept per server: pages list them all; no real server offers thousands. */
export const MAX_TOOLS_PER_SERVER = 1000;

/** A tool result relayed to a page (the Servers view's run): above this the page gets a
 * truncated text and the note that it was cut. The gateway forwards results unchanged. */
export const MAX_RESULT_BYTES_TO_PAGE = 1024 * 1024;

/** Form schemas (elicitation `requestedSchema`, a posted `data.schema`): a flat form of more
 * than 100 fields is not a question a person answers. */
export const MAX_FORM_PROPERTIES = 100;

/** Options of one choice field (`enum`, `oneOf`, `items.anyOf`): a list longer than 1000 is not
 * a choice a person can make, and each option is checked on every keystroke. */
export const MAX_ENUM_OPTIONS = 1000;

/** Any string inside a form schema (title, description, default, option label) and any text
 * value a person submits. 10k characters is several screens. */
export const MAX_SCHEMA_STRING = 10_000;

/** A `pattern` in a form schema; runs on a linear-time engine (re2js), and a longer pattern is
 * dropped rather than compiled. */
export const MAX_PATTERN_LENGTH = 1000;

/** A question's prompt (elicitation `message`, a Request's `prompt`): shown whole to the person. */
export const MAX_PROMPT_LENGTH = 20_000;

/** A URL-mode URL: browsers accept ~2 MB, but nobody reviews a URL that long. */
export const MAX_URL_LENGTH = 8 * 1024;

/** Pending questions one MCP server may have at once; further ones are refused at once. */
export const MAX_PENDING_PER_SERVER = 8;

/** Pending questions posted through one gateway token/connection to /v1/requests, whatever
 * `X-Agent-Name` says (the name is the caller's choice, so it cannot be the key). */
export const MAX_PENDING_PER_CALLER = 16;

/** Pending questions in the whole Inbox: a person cannot work through more; past it every
 * new question is refused (429 for agents, cancel for servers) until some are answered. */
export const MAX_PENDING_TOTAL = 200;

/** How long quitting waits for servers to hear their `cancel` and for remote sessions to end. */
export const QUIT_GRACE_MS = 3000;

/** After the main process dies, however it dies, its stdio servers are gone within this. */
export const ORPHAN_DEADLINE_MS = 5000;

/** A permission hook's stdin (`toolnexus-companion hook …`): the agent's JSON about one tool call.
 * A patch or a file written whole can be large, but 1 MiB is far beyond what a person reviews;
 * past it the hook gives no verdict and the agent asks in its own terminal. */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;

/** The note a person sends back with a Deny on an agent's question (data.message): a sentence or
 * two for the agent to read, not a document. */
export const MAX_DECLINE_MESSAGE = 2000;

/** Work one `pattern` check may do: re2js runs in time linear in the input, but its fallback
 * (an NFA, when its DFA grows too large) costs about input length × program size steps at a few
 * hundred ns each. A check past this many steps skips the pattern (treated as absent), so no check
 * takes more than ~150 ms whatever the pattern and the text. */
export const MAX_PATTERN_STEPS = 400_000;

/** One message a server sends: a stdio line (mcp/stdio-transport.ts), an SSE event or a JSON
 * body over HTTP (the fast path, and mcp/bounded-fetch.ts for the SDK's transports). Tool results
 * can be large (files, images as base64), so the bound is generous; it exists so a server that
 * streams without ever ending a message cannot grow the companion's memory without end. Past it
 * the connection is closed with the reason (a stdio server is stopped), or the fast call fails. */
export const MAX_SERVER_MESSAGE_BYTES = 64 * 1024 * 1024;

// ── What one peer of the network or a pipe can hold: sessions, sockets, unread output ──────────

/** Open /mcp sessions per authenticated credential (today the one gateway token). A person runs a
 * handful of agents, each with one session per companion entry and a few sub-agents; 64 live ones
 * is far above that, and it bounds what one credential can make the companion keep. */
export const MAX_MCP_SESSIONS_PER_CREDENTIAL = 64;

/** Open /mcp sessions in all: room for several credentials (per-agent ones later) at the cap
 * above, while the sessions' memory stays bounded (see MAX_MCP_EVENT_BYTES_TOTAL). At a cap, the
 * least recently used idle session (no open stream, no call in flight: an agent that dropped its
 * connection without DELETE) is ended to make room; only when none is idle is the new one refused
 * (429). */
export const MAX_MCP_SESSIONS_TOTAL = 256;

/** A session with no open stream and no call is ended after this while few sessions are open:
 * most agents drop the connection instead of sending DELETE, and reconnect with a new session. */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;

/** …and after as little as this as the open sessions near MAX_MCP_SESSIONS_TOTAL (the idle
 * deadline falls linearly from MCP_SESSION_IDLE_MS at half the cap to this at the cap). */
export const MCP_SESSION_IDLE_MIN_MS = 60_000;

/** Bytes of replayable events (SSE resumption) kept over all sessions: each session keeps up to
 * 8 MiB of its own, so without a total 256 sessions could hold 2 GiB. Past it the oldest events
 * of the largest stores go first. */
export const MAX_MCP_EVENT_BYTES_TOTAL = 64 * 1024 * 1024;

/** Tasks the gateway holds for one agent session (running and ended ones not yet dropped): an
 * agent runs a few long calls at once; past it the oldest ended task is dropped to make room, and
 * only when all are running is a new one refused. */
export const MAX_AGENT_TASKS_PER_SESSION = 32;

/** …and over all sessions, at the same rule: each task holds one call and, once ended, its result
 * (within the JSON bounds), so the sum stays bounded however many sessions are open. */
export const MAX_AGENT_TASKS_TOTAL = 256;

/** How long the gateway keeps an ended task (its result, for tasks/result) when the agent asked
 * for no ttl; an agent's own ttl is held to AGENT_TASK_MAX_TTL_MS. */
export const AGENT_TASK_TTL_MS = 10 * 60_000;
export const AGENT_TASK_MAX_TTL_MS = 60 * 60_000;

/** The complete request headers must arrive within this (Node's `headersTimeout`). A local agent
 * sends them in one write; a client trickling them holds a socket, and sockets are descriptors. */
export const HTTP_HEADERS_TIMEOUT_MS = 10_000;

/** A whole request, body included, must arrive within this (Node's `requestTimeout`): over
 * loopback a 4 MiB body takes milliseconds. Long SSE responses are not affected. */
export const HTTP_REQUEST_TIMEOUT_MS = 120_000;

/** A body may start slowly, but after this grace it must arrive at HTTP_BODY_MIN_BYTES_PER_S on
 * average, or the socket is closed (a body sent a byte a second holds a socket for days). */
export const HTTP_BODY_GRACE_MS = 10_000;
export const HTTP_BODY_MIN_BYTES_PER_S = 1024;

/** An idle keep-alive socket is closed after this (Node's `keepAliveTimeout`); agents reconnect. */
export const HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** A page's WebSocket is pinged this often; a page that has not answered the previous ping by
 * the next one (a frozen tab, a peer that stopped reading) is terminated. */
export const WS_PING_INTERVAL_MS = 30_000;

/** Bytes waiting to be sent to one peer that does not read them: a page's WebSocket, an agent's
 * event stream (/mcp SSE), a stdio server's stdin. Past it, before one more message is queued, the
 * peer is dropped (the socket destroyed, the server stopped with the reason); so at most this plus
 * one message waits. 8 MiB is two of the largest bodies an agent may send. */
export const MAX_PEER_QUEUED_BYTES = 8 * 1024 * 1024;

/** Bytes queued on one page's WebSocket before one more message: a page receives every event,
 * and the servers view with large tool schemas can be several MiB, so its bound is twice the
 * others; past it the socket is terminated (the page reconnects and reloads its state). */
export const MAX_PAGE_SOCKET_QUEUED_BYTES = 16 * 1024 * 1024;

/** Output waiting for one peer must drain within this once the pipe or socket is full, or the
 * peer is dropped as above: a reader that is alive empties a loopback buffer in milliseconds. */
export const PEER_DRAIN_DEADLINE_MS = 30_000;

// ---- Scale: many servers, many large tools, floods of refused questions ----

/** Server connects in flight at once (start-up, restarts, config edits). A config may name
 * thousands of servers; connecting all at once opens as many sockets and handshakes whose
 * callbacks crowd out agents' requests. 16 keeps a typical config (tens of servers) fully
 * parallel (they connect in a few hundred ms), and a server that never answers holds one slot only until its connect times out. */
export const MAX_CONCURRENT_CONNECTS = 16;

/** The whole servers list goes to pages at most this often while servers keep changing (each
 * change of one server still reaches the pages within this). Building and sending the list costs
 * time in the number of servers, so with thousands of them it must not happen per event. */
export const SERVERS_EVENT_INTERVAL_MS = 100;

/** A tool's description in the servers list: the start of it, enough to recognise the tool. The
 * list carries every tool of every server, and a description is not bounded by the server. */
export const MAX_TOOL_DESCRIPTION_IN_LIST = 1000;

/** A tool's description when one tool is sent whole (`tools:get`): several screens of text, far
 * under the bound of one message to a page. */
export const MAX_TOOL_DESCRIPTION_TO_PAGE = 64 * 1024;

/** One message to a page over the WebSocket (a result or an event). A message past it is not
 * sent: a result fails that one call with `too-large`, an event is dropped with a log line, and
 * the socket lives on. The same as what a page may send (MAX_BODY_BYTES): a page's list is sent
 * in pieces well under it (summaries, one tool whole on demand). */
export const MAX_WS_MESSAGE_BYTES = MAX_BODY_BYTES;

/** Refused questions (refused or expired before they were ever shown) recorded one by one per
 * asker per minute; past it, the asker's further refusals that minute are one row with a count.
 * A few rows show what the asker sent; thousands of the same say nothing more. */
export const HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE = 3;

/** Rows of refused questions per minute over all askers (their own rows and count rows). An agent
 * picks its own X-Agent-Name, so a flood can come from a new "asker" each time: past this, the
 * minute's further refusals from anyone are one row with a count. */
export const HISTORY_REFUSED_ROWS_PER_MINUTE = 60;

/** History's database at most (what its rows, indexes and search index take): years of a
 * person's questions fit in a few MiB; past it the oldest records go first. */
export const HISTORY_BUDGET_BYTES = 64 * 1024 * 1024;

/** What one asker's records may take of it (its prompts, fields and answers as stored): one
 * noisy server or agent cannot push everyone else's records out. */
export const HISTORY_SOURCE_BUDGET_BYTES = 16 * 1024 * 1024;

/** A task id a server gives (either tasks wire). Ids are UUIDs or tokens of a few dozen
 * characters; one is sent back in every tasks/* request and, over HTTP, in its Mcp-Name header,
 * so a longer one is refused rather than echoed. */
export const MAX_TASK_ID_LENGTH = 512;

/** A task's statusMessage as kept and shown: a line or a paragraph. A longer one is cut. */
export const MAX_TASK_STATUS_MESSAGE = 2000;

/** The poll interval a server may ask for, at least and at most. Below, a server would have the
 * companion poll it in a busy loop; above, an ended task would go unseen for minutes. */
export const MIN_TASK_POLL_MS = 50;
export const MAX_TASK_POLL_MS = 60_000;

/** Outstanding inputRequests in one answer (2026-07-28 tasks, or an input_required result): each
 * becomes a question in the Inbox, which holds MAX_PENDING_PER_SERVER per server at once. */
export const MAX_TASK_INPUT_REQUESTS = 16;

/** An inputRequests key, echoed back in inputResponses: a name, not a payload. */
export const MAX_TASK_INPUT_KEY_LENGTH = 256;

/** An input_required result's requestState, echoed back byte for byte on the retried call: it
 * rides in our request body, so it stays well under what a server accepts as one (MAX_BODY_BYTES). */
export const MAX_REQUEST_STATE_LENGTH = 1024 * 1024;

/** Rounds of input_required answers to one call before it fails (the SDK client's own default). */
export const MAX_INPUT_ROUNDS = 10;
/** Calls that told an opted-in agent "not answered yet" (gateway/long-waits-store.ts), kept until
 * claimed with toolnexus_wait: at most this many per agent… */
export const MAX_LONG_WAITS_PER_AGENT = 32;
/** …and in all. */
export const MAX_LONG_WAITS_TOTAL = 256;
/** A result nobody claimed is dropped this long after it came. */
export const LONG_WAIT_KEEP_MS = 60 * 60_000;
