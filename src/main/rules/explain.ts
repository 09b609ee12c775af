// What a rule does, in the words Settings and the CLI show.
import { titledValue } from "../../shared/history";
import type { Rule, RuleField } from "../../shared/rules";

const MAX_VALUE_CHARS = 40;

/** A value as the form showed it: an option's title in quotes, text in quotes, others as they are. */
function shown(value: unknown, field: RuleField | undefined): string {
  const titled = titledValue(field, value);
  const text = typeof value === "string" || Array.isArray(value) ? JSON.stringify(titled) : titled;
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

export function explainRule(rule: Rule): string {
  const lasting = rule.scope === "session" ? "until the companion quits" : "until you remove it";
  if (rule.type === "approval") {
    const where = rule.project ? ` in ${rule.project}` : "";
    return `Allow ${rule.agent} to use ${rule.tool}${where} again when it asks for exactly the same thing (${rule.summary}), ${lasting}.`;
  }
  const asker = rule.tool ? `${rule.server}'s tool ${rule.tool}` : `${rule.server} (any tool)`;
  const fields = rule.fields.length ? ` (${rule.fields.map((f) => f.title ?? f.key).join(", ")})` : "";
  if (rule.action === "decline") return `Decline the form${fields} from ${asker}, ${lasting}.`;
  const values = Object.entries(rule.data ?? {}).map(([k, v]) => {
    const field = rule.fields.find((f) => f.key === k);
    return `${field?.title ?? k} = ${shown(v, field)}`;
  });
  const sent = values.length ? ` sending ${values.join("; ")}` : " sending no values";
  return `Accept the form${fields} from ${asker}${sent}, ${lasting}.`;
}
