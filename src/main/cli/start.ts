// `toolnexus-companion start` (alias `serve`): the companion in this process, without the desktop
// shell — what `npm run serve` runs from its bundle. The composition root (src/main/app/serve.ts) is
// handed to the CLI by its launcher, bin/toolnexus-companion: the CLI layer does not import it.
export const START_USAGE = `Usage: toolnexus-companion start [--config PATH] [--port N]
       (alias: toolnexus-companion serve; from a checkout also npm run serve -- [--config PATH] [--port N])

  Runs the companion here, without the desktop shell: the MCP gateway agents connect to and the
  same page the desktop app shows, for a browser (headless machines, SSH sessions). It prints
  the page's address with its token; Ctrl-C stops it and every server it started.
  --config    The MCP config (else TOOLNEXUS_CONFIG, else $XDG_CONFIG_HOME/toolnexus-companion/mcp.json).
  --port      The loopback port (default 7315; 0 picks a free one).
  In a source checkout the page comes from out/renderer: \`npm run build:renderer\` builds it.
`;
