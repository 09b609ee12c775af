// `toolnexus-companion token`: prints the gateway token so it can be pasted into an agent config.
import { resolveToken } from "./resolve-token";

export async function runToken(args: string[]): Promise<number> {
  if (args.length > 0) {
    process.stderr.write("Usage: toolnexus-companion token\n");
    return 2;
  }
  const { token, why } = await resolveToken();
  if (!token) {
    process.stderr.write(`toolnexus-companion: no gateway token: ${why}.\n`);
    return 1;
  }
  process.stdout.write(`${token}\n`);
  return 0;
}
