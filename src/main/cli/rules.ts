// `toolnexus-companion rules`: the rules kept until removed (the rules file the app reads), listed
// and removed. Session rules live only in the running app; its Settings shows those.
import { parseArgs } from "node:util";
import { explainRule } from "../rules/explain";
import { readRulesFile, rulesFileStamp, writeRulesFile } from "../rules/file";
import { defaultRulesPath } from "../rules/paths";
import { cell, complainer, errText, out, outJson } from "./print";

export const RULES_USAGE = `Usage: toolnexus-companion rules list [--json] [--file PATH]
       toolnexus-companion rules remove ID [--file PATH]

  The rules you set with "Always answer this way … until removed": which server's form each
  answers and how. Rules for this session only are shown in the app's Settings.
  --json   One JSON object per line.
  --file   The rules file (default ${defaultRulesPath()}).
`;

const complain = complainer();
function fail(message: string, code = 2): number {
  complain(message);
  return code;
}

export async function runRules(args: string[]): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { json: { type: "boolean" }, file: { type: "string" } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${RULES_USAGE}`);
  }
  const [sub, ...rest] = positionals;
  const file = values.file ?? defaultRulesPath();
  if (sub === "list" && rest.length === 0) {
    const read = readRulesFile(file);
    if (read.problem) return fail(`cannot read ${file}: ${read.problem}.`, 1);
    for (const skip of read.skipped) errText(`(left out ${skip.id ? `rule ${skip.id}` : "a rule"}: ${skip.reason})\n`);
    if (values.json) {
      for (const rule of read.rules) outJson({ ...rule, explanation: explainRule(rule) });
    } else if (read.rules.length === 0) {
      errText(rulesFileStamp(file) === undefined ? `No rules yet (${file} does not exist).\n` : "No rules kept.\n");
    } else {
      for (const rule of read.rules) out(`${cell(rule.id, 80)}  ${cell(explainRule(rule), 200)}`);
    }
    return 0;
  }
  if (sub === "remove" && rest.length === 1 && !values.json) {
    const id = rest[0];
    const read = readRulesFile(file);
    if (read.problem) return fail(`cannot read ${file}: ${read.problem}; nothing was changed.`, 1);
    const next = read.rules.filter((r) => r.id !== id);
    if (next.length === read.rules.length) return fail(`no rule "${id}" in ${file} ("rules list" shows their ids).`, 1);
    // Rules the file held but that failed a check are not written back: they never answered.
    try {
      writeRulesFile(file, next);
    } catch (error) {
      return fail(`cannot write ${file}: ${(error as Error).message}.`, 1);
    }
    out(`Removed rule ${id}.`);
    return 0;
  }
  return fail(sub ? `rules: "${[sub, ...rest].join(" ")}" is not a rules command.\n\n${RULES_USAGE}` : RULES_USAGE);
}
