// Minimal edits to another client's JSON / JSONC settings file: add or remove one member and leave
// every other byte as it was (comments, order, trailing commas, the file's indentation and line
// ends). jsonc-parser finds the nodes; the text of an insertion is written here, because
// jsonc-parser's own formatter re-indents the neighbouring lines it touches. Each removal is checked
// against a fresh parse, and when the plain inverse of an insertion is ambiguous (was that comma
// ours? was that empty object there before?) the caller picks the candidate whose re-insertion gives
// back the current text (see `inverse`).
import { findNodeAtLocation, modify, applyEdits, parseTree, type Node, type ParseError } from "jsonc-parser";
import { isDeepStrictEqual } from "node:util";

export type JsonPath = (string | number)[];

/** How the file is laid out, so what we add looks like what is there. */
export interface Layout {
  eol: string;
  unit: string;
}

export class EditError extends Error {}

function detectLayout(text: string): Layout {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let unit: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const lead = /^([ \t]+)\S/.exec(line)?.[1];
    if (!lead) continue;
    if (lead.startsWith("\t")) {
      unit = "\t";
      break;
    }
    if (unit === undefined || lead.length < unit.length) unit = lead;
  }
  return { eol, unit: unit ?? "  " };
}

/** Parses like the clients do (comments and trailing commas allowed; errors are refused). */
export function parseJsonc(text: string): unknown {
  if (text.trim() === "") return {};
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0 || !root) throw new EditError(`not valid JSON at offset ${errors[0]?.offset ?? 0}`);
  return nodeValue(root);
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries((node.children ?? []).map((p) => [p.children![0].value as string, nodeValue(p.children![1])]));
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function tree(text: string): Node {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) throw new EditError("the file has no JSON value");
  return root;
}

const lineStart = (text: string, offset: number) => text.lastIndexOf("\n", offset - 1) + 1;
function lineEnd(text: string, offset: number): number {
  const n = text.indexOf("\n", offset);
  const end = n === -1 ? text.length : n;
  return text[end - 1] === "\r" ? end - 1 : end;
}
const indentOf = (text: string, offset: number) => /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];

/** `value` as the file would write it, its lines after the first indented by `indent`. */
function render(value: unknown, indent: string, layout: Layout): string {
  return JSON.stringify(value, null, layout.unit).split("\n").join(layout.eol + indent);
}

/** The text of one member: `"key": value` in an object, `value` in an array. */
function member(key: string | number, value: unknown, indent: string, layout: Layout): string {
  const body = render(value, indent, layout);
  return typeof key === "string" ? `${JSON.stringify(key)}: ${body}` : body;
}

// Only a comma, spaces and one comment may follow a member on its line for it to "end its line".
const LINE_REST = /^[ \t]*(,?)[ \t]*(\/\/[^\r\n]*|\/\*[^\r\n]*?\*\/)?[ \t]*$/;

/** Appends `key: value` (or `value`, in an array) to the container node. */
function appendTo(text: string, container: Node, key: string | number, value: unknown, layout: Layout): string {
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const parentIndent = indentOf(text, open);
  const children = container.children ?? [];
  if (children.length === 0) {
    const indent = parentIndent + layout.unit;
    return text.slice(0, open + 1) + layout.eol + indent + member(key, value, indent, layout) + layout.eol + parentIndent + text.slice(close);
  }
  const last = children[children.length - 1];
  const end = last.offset + last.length;
  const eolAt = lineEnd(text, end);
  const rest = LINE_REST.exec(text.slice(end, eolAt));
  const ownLine = indentOf(text, last.offset).length === last.offset - lineStart(text, last.offset) && rest && eolAt < close;
  if (!ownLine) {
    // A container written on one line gets its new member on that line too.
    const compact = typeof key === "string" ? `${JSON.stringify(key)}: ${JSON.stringify(value)}` : JSON.stringify(value);
    return text.slice(0, end) + ", " + compact + text.slice(end);
  }
  const indent = indentOf(text, last.offset);
  const trailingComma = rest[1] === ",";
  const added = layout.eol + indent + member(key, value, indent, layout) + (trailingComma ? "," : "");
  return text.slice(0, end) + (trailingComma ? "" : ",") + text.slice(end, eolAt) + added + text.slice(eolAt);
}

/** Sets `path` to `value`: replaces a member that is there, else appends it (creating parents). */
export function setAt(text: string, path: JsonPath, value: unknown, layout: Layout = detectLayout(text)): string {
  if (text.trim() === "") {
    const wrapped = path.reduceRight<unknown>((inner, key) => (typeof key === "string" ? { [key]: inner } : [inner]), value);
    return render(wrapped, "", layout) + layout.eol;
  }
  const root = tree(text);
  const existing = findNodeAtLocation(root, path);
  if (existing) {
    if (isDeepStrictEqual(nodeValue(existing), value)) return text;
    const indent = indentOf(text, existing.parent?.type === "property" ? existing.parent.offset : existing.offset);
    return text.slice(0, existing.offset) + render(value, indent, layout) + text.slice(existing.offset + existing.length);
  }
  // The deepest container that exists gets the rest of the path as one nested member.
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const container = depth === 0 ? root : findNodeAtLocation(root, path.slice(0, depth));
    if (!container) continue;
    const key = path[depth];
    if (container.type !== (typeof key === "string" ? "object" : "array")) {
      throw new EditError(`"${path.slice(0, depth).join(".") || "the file"}" is not ${typeof key === "string" ? "an object" : "a list"}`);
    }
    const nested = path.slice(depth + 1).reduceRight<unknown>((inner, k) => (typeof k === "string" ? { [k]: inner } : [inner]), value);
    return appendTo(text, container, key, nested, layout);
  }
  throw new EditError("the file's top level is not an object");
}

/** Appends `value` to the list at `path` (creating it). */
export function appendAt(text: string, path: JsonPath, value: unknown, layout: Layout = detectLayout(text)): string {
  if (text.trim() === "") return setAt(text, path, [value], layout);
  const list = findNodeAtLocation(tree(text), path);
  if (!list) return setAt(text, path, [value], layout);
  if (list.type !== "array") throw new EditError(`"${path.join(".")}" is not a list`);
  return appendTo(text, list, list.children?.length ?? 0, value, layout);
}

/** Ways of taking out the member at `path`; every one leaves the rest of the document as it was. */
export function removeCandidates(text: string, path: JsonPath): string[] {
  const root = tree(text);
  const node = findNodeAtLocation(root, path);
  if (!node) return [];
  const target = node.parent?.type === "property" ? node.parent : node;
  const container = target.parent!;
  const siblings = container.children!;
  const index = siblings.indexOf(target);
  const start = target.offset;
  const end = target.offset + target.length;
  const out: string[] = [];
  const open = container.offset;
  const close = container.offset + container.length - 1;
  if (siblings.length === 1) {
    const parentIndent = indentOf(text, open);
    for (const inside of ["", " ", "\n" + parentIndent, "\r\n" + parentIndent]) out.push(text.slice(0, open + 1) + inside + text.slice(close));
  } else if (index === siblings.length - 1) {
    const prev = siblings[index - 1];
    const prevEnd = prev.offset + prev.length;
    const before = text.slice(prevEnd, start);
    // Our own line: "<prev>,<rest of its line>\n<indent><member>[,]" — take the line, and the comma
    // after <prev> unless the file keeps trailing commas.
    const lineBreak = before.search(/\r?\n[ \t]*$/);
    const trailing = text[end] === "," ? 1 : 0;
    if (lineBreak !== -1) {
      const restOfPrev = before.slice(0, lineBreak);
      const withoutComma = restOfPrev.replace(/^([ \t]*),/, "$1");
      out.push(text.slice(0, prevEnd) + withoutComma + text.slice(end + trailing));
      out.push(text.slice(0, prevEnd) + restOfPrev + text.slice(end + trailing));
    }
    out.push(text.slice(0, prevEnd) + text.slice(end));
  } else {
    const next = siblings[index + 1];
    out.push(text.slice(0, lineStart(text, start)) + text.slice(lineStart(text, next.offset)));
    out.push(text.slice(0, start) + text.slice(next.offset));
  }
  // Keep only candidates that are exactly the document without that member.
  const expected = parseJsonc(applyEdits(text, modify(text, path, undefined, {})));
  const valid = out.filter((candidate, i) => out.indexOf(candidate) === i && safeEqual(candidate, expected));
  if (valid.length > 0) return valid;
  // Something unusual around it: jsonc-parser's own removal is right, if less tidy.
  return [applyEdits(text, modify(text, path, undefined, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: detectLayout(text).eol } }))];
}

function safeEqual(text: string, expected: unknown): boolean {
  try {
    return isDeepStrictEqual(parseJsonc(text), expected);
  } catch {
    return false;
  }
}

/** The value at `path`, or undefined. */
export function valueAt(text: string, path: JsonPath): unknown {
  if (text.trim() === "") return undefined;
  const node = findNodeAtLocation(tree(text), path);
  return node ? nodeValue(node) : undefined;
}
