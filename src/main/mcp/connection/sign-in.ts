// OAuth sign-in for one remote server's connection: the person is asked (one question at a
// time), the code is redeemed on the transport that was refused, and the server is connected
// again; a connect refused again (a step-up to more scopes) asks again, a bounded number of times.
import { UnauthorizedError, type Transport } from "@modelcontextprotocol/client";
import type { ServerStatus } from "../../../shared/types";
import { MAX_SIGN_INS_PER_CONNECT } from "../../auth/session";
import type { ServerAuthSession } from "../../auth/types";
import type { WaitFor } from "../../inbox/wait-for";

import { finishAuthOn } from "./transports";
import { errorMessage } from "../../../shared/unknown-value";

export type Attempt = "connected" | "failed" | "needs-sign-in";

/** The SDK's "the person must sign in" (a 401 or a 403 step-up that led to a new authorization URL). */
export function isUnauthorized(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  const e = error as { cause?: unknown; data?: { cause?: unknown } } | undefined;
  return e?.cause instanceof UnauthorizedError || e?.data?.cause instanceof UnauthorizedError;
}

/** What a sign-in needs of its connection. */
export interface SignInHost {
  readonly name: string;
  readonly waitFor?: WaitFor;
  /** Aborts when the app quits: a sign-in still waiting on the browser ends. */
  readonly quitting: AbortSignal;
  state(): ServerStatus["state"];
  closing(): boolean;
  /** The transport of the current connection, if any. */
  transport(): Transport | undefined;
  /** Connects (again); never rejects. */
  attempt(): Promise<Attempt>;
  setStatus(patch: Partial<ServerStatus>): void;
  log(line: string): void;
}

export class SignIn {
  /** The transport whose request was refused: its finishAuth redeems the code (it knows the scope asked). */
  private refusedTransport?: Transport;
  private running?: Promise<boolean>;

  constructor(
    /** OAuth for this remote server (LoadOptions.auth); its credentials outlive each connection. */
    readonly session: ServerAuthSession,
    private readonly host: SignInHost,
  ) {}

  /** A connect was refused for want of sign-in on this transport. */
  refused(transport: Transport | undefined): void {
    this.refusedTransport = transport;
  }

  /**
   * Asks the person to sign in (one question at a time), redeems the code, and connects again;
   * a connect refused again (a step-up to more scopes) asks again, at most
   * MAX_SIGN_INS_PER_CONNECT times. Resolves true once connected; never rejects.
   */
  signIn(agent?: string): Promise<boolean> {
    this.running ??= this.run(agent).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(agent?: string): Promise<boolean> {
    const host = this.host;
    const waitFor = host.waitFor;
    if (!waitFor) return false;
    for (let round = 1; ; round++) {
      const transport = this.refusedTransport ?? host.transport();
      try {
        await this.session.signIn({ waitFor, agent, signal: host.quitting, finish: transport ? (params) => finishAuthOn(transport, params) : undefined });
      } catch (error) {
        const message = `sign-in did not complete: ${errorMessage(error)}`;
        host.log(`${host.name}: ${message}`);
        if (host.state() !== "connected") host.setStatus({ state: "needs-sign-in", error: message });
        return false;
      }
      this.refusedTransport = undefined;
      // A step-up during a call: the connection lives on, the call retries with the new token.
      if (host.state() === "connected" || host.closing()) return host.state() === "connected";
      const outcome = await host.attempt();
      if (outcome !== "needs-sign-in") return outcome === "connected";
      if (round >= MAX_SIGN_INS_PER_CONNECT) {
        // needs-sign-in, not failed: a supervisor restarting a failed server would ask again and again.
        host.setStatus({ state: "needs-sign-in", error: `sign-in did not complete: still refused after ${round} sign-ins (the server may want scopes its authorization server does not grant)` });
        return false;
      }
    }
  }
}
