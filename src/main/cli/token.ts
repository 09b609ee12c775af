// `toolnexus-companion token`: prints the gateway token so it can be pasted into an agent config.
import { complainer, errText, out } from "./print";
import { resolveToken } from "./resolve-token";

export async function runToken(args: string[]): Promise<number> {
  if (args.length > 0) {
    errText("Usage: toolnexus-companion token\n");
    return 2;
  }
  const { token, why } = await resolveToken();
  if (!token) {
    complainer()(`no gateway token: ${why}.`);
    return 1;
  }
  out(token);
  return 0;
}
