// Whether a pending question can have a rule, and the rule itself. The page only says "this one,
// this way"; everything the rule holds is taken from the pending question here. Refusals carry a
// reason a person can read: URL mode and sign-in are never answered by a rule, no credential is
// ever kept, and an agent's permission prompt is allowed again only when repeated exactly, for this
// session, and never for a shell command.
import { createHash, randomUUID } from "node:crypto";
import type { ApprovalRule, FormRule, Rule, RuleAction, RuleOffer, RuleScope } from "../../shared/rules";
import type { PendingEntry } from "../../shared/types";
import { checkFormAnswer } from "../../forms/check-answer";
import { describeAction } from "../hooks/action";
import { fieldsAsked } from "../../forms/fields-asked";
import { isCredentialProperty } from "../../forms/credential";
import { canonicalJson } from "./canonical";
import { schemaFingerprint } from "./fingerprint";
import { isPlainObject } from "../../shared/unknown-value";

export type Made = { ok: true; rule: Rule } | { ok: false; reason: string };

export interface MakeArg {
  action: RuleAction;
  data?: Record<string, unknown>;
  scope: RuleScope;
}

export interface MakeOptions {
  now?: number;
  id?: string;
  /** The secret scrubber: a value it would change is one of the person's secrets. */
  redact?: <T>(value: T) => T;
}

const APPROVAL_KIND = "approval";
const MAX_PROMPT_KEPT = 300;
// Tool names that run commands, whatever the agent calls them; the action's own kind is checked too.
const SHELL_NAME = /(?:^|[^a-z])(?:bash|shell|sh|zsh|powershell|pwsh|cmd|exec|terminal|command)(?:$|[^a-z])/i;

function refuse(reason: string): Made {
  return { ok: false, reason };
}

function hash(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 32)}`;
}

/** Why no rule at all can be made for this question, or undefined. */
function kindProblem(entry: PendingEntry): string | undefined {
  const { request } = entry;
  if (request.kind === "authorization" || request.url !== undefined) {
    return "A link to open or a sign-in is always yours to answer: a rule never opens a URL or signs in for you.";
  }
  if (request.kind === "input") {
    if (!entry.source.server) return "Rules answer forms from your MCP servers; this form was posted by an agent, so it is answered each time.";
    if (schemaFingerprint(request.data?.schema) === undefined) return "This form cannot be checked, so no rule can answer it.";
    return undefined;
  }
  if (request.kind === APPROVAL_KIND) return approvalProblem(entry);
  return `Rules answer servers' forms and agents' permission prompts; a "${request.kind}" question is answered each time.`;
}

/** The exact request an approval rule stands for: a hash of everything that says what would happen. */
export function approvalKey(entry: PendingEntry): string | undefined {
  const data = entry.request.data;
  if (entry.request.kind !== APPROVAL_KIND || !isPlainObject(data)) return undefined;
  if (typeof data.agent !== "string" || typeof data.tool !== "string" || !("input" in data) || data.inputOmitted) return undefined;
  return hash({
    asker: { server: entry.source.server ?? null, agent: entry.source.agent ?? null },
    agent: data.agent,
    project: typeof data.project === "string" ? data.project : null,
    tool: data.tool,
    input: data.input,
    // Allowed again within the same agent session only, when the agent said which.
    session: typeof data.session === "string" ? data.session : null,
  });
}

function approvalProblem(entry: PendingEntry): string | undefined {
  const data = entry.request.data;
  if (!isPlainObject(data) || typeof data.agent !== "string" || typeof data.tool !== "string") return "This permission prompt does not say which agent and tool ask.";
  const posted = isPlainObject(data.action) ? data.action.kind : undefined;
  // The posted classification is the asker's say-so; the tool and input are judged here again.
  if (posted === "shell" || describeAction(data.tool, data.input).kind === "shell" || SHELL_NAME.test(data.tool)) {
    return "A shell command is always yours to allow: a rule never runs commands for you.";
  }
  if (data.inputOmitted || !("input" in data)) return "This request was too large to compare exactly, so a rule cannot allow it again.";
  if (approvalKey(entry) === undefined) return "This permission prompt cannot be compared exactly.";
  return undefined;
}

/** What "Always answer this way" may offer for the question. */
export function offerFor(entry: PendingEntry): RuleOffer {
  const problem = kindProblem(entry);
  if (problem) return { allowed: false, reason: problem, actions: [], scopes: [] };
  if (entry.request.kind === APPROVAL_KIND) return { allowed: true, actions: ["accept"], scopes: ["session"] };
  const schema = entry.request.data?.schema;
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  const credentialFields = fieldsAsked(schema)
    .filter((f) => isCredentialProperty(f.key, properties[f.key]))
    .map((f) => f.title ?? f.key);
  const offer: RuleOffer = { allowed: true, actions: ["accept", "decline"], scopes: ["session", "always"] };
  if (credentialFields.length > 0) offer.credentialFields = credentialFields;
  return offer;
}

function credentialIn(schema: unknown, data: Record<string, unknown>): string | undefined {
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  for (const key of Object.keys(data)) {
    const property = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (isCredentialProperty(key, property)) {
      const title = isPlainObject(property) && typeof property.title === "string" ? property.title : key;
      return title;
    }
  }
  return undefined;
}

function makeForm(entry: PendingEntry, arg: MakeArg, options: MakeOptions): Made {
  const schema = entry.request.data?.schema;
  const fingerprint = schemaFingerprint(schema)!;
  const rule: FormRule = {
    id: options.id ?? `rule-${randomUUID()}`,
    type: "form",
    server: entry.source.server!,
    fingerprint,
    fields: fieldsAsked(schema),
    action: arg.action,
    scope: arg.scope,
    prompt: entry.request.prompt.slice(0, MAX_PROMPT_KEPT),
    createdAt: options.now ?? Date.now(),
  };
  if (entry.source.tool) rule.tool = entry.source.tool;
  if (arg.action === "decline") {
    if (arg.data !== undefined && Object.keys(arg.data).length > 0) return refuse("A rule that declines sends no values.");
    return { ok: true, rule };
  }
  // The same preparation and check an answer gets, so the rule holds what would have been sent.
  const checked = checkFormAnswer(schema, arg.data ?? {});
  if (!checked.ok) return refuse(`These values do not fit the form: ${checked.errors.join("; ")}`);
  const data = checked.data ?? {};
  const credential = credentialIn(schema, data);
  if (credential !== undefined) {
    return refuse(`"${credential}" looks like a password, token or other credential; a rule never keeps one. Answer this form each time, or leave that field empty.`);
  }
  if (options.redact && canonicalJson(options.redact(data)) !== canonicalJson(data)) {
    return refuse("A value here is one of your saved secrets; a rule never keeps one.");
  }
  rule.data = data;
  return { ok: true, rule };
}

function makeApproval(entry: PendingEntry, arg: MakeArg, options: MakeOptions): Made {
  if (arg.action !== "accept") return refuse("A rule for a permission prompt can only allow it again; deny it each time it asks.");
  if (arg.scope !== "session") return refuse("A permission prompt is allowed again for this session only, never until removed.");
  if (arg.data !== undefined && Object.keys(arg.data).length > 0) return refuse("A rule that allows a permission prompt sends no values.");
  const data = entry.request.data as Record<string, unknown>;
  const rule: ApprovalRule = {
    id: options.id ?? `rule-${randomUUID()}`,
    type: "approval",
    agent: data.agent as string,
    tool: data.tool as string,
    summary: typeof data.summary === "string" ? data.summary.slice(0, MAX_PROMPT_KEPT) : (data.tool as string),
    key: approvalKey(entry)!,
    action: "accept",
    scope: "session",
    prompt: entry.request.prompt.slice(0, MAX_PROMPT_KEPT),
    createdAt: options.now ?? Date.now(),
  };
  if (typeof data.project === "string") rule.project = data.project;
  return { ok: true, rule };
}

/** The rule "answer this question this way", or why not. */
export function makeRule(entry: PendingEntry, arg: MakeArg, options: MakeOptions = {}): Made {
  const problem = kindProblem(entry);
  if (problem) return refuse(problem);
  return entry.request.kind === APPROVAL_KIND ? makeApproval(entry, arg, options) : makeForm(entry, arg, options);
}
