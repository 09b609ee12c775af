// Sizes the skeleton test holds src/main to: lines per file, lines per function (functions,
// methods, arrows and function expressions, measured by the TypeScript parser).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { ROOT } from "./cli";

export interface FunctionSize {
  file: string;
  name: string;
  line: number;
  lines: number;
}

export function lineCount(file: string): number {
  return readFileSync(join(ROOT, file), "utf8").split("\n").length;
}

export function functionSizes(file: string): FunctionSize[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : nameFromParent(node);
      out.push({ file, name, line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function nameFromParent(node: ts.Node): string {
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return "(anonymous)";
}
