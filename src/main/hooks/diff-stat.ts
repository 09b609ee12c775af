// "+N −M lines" for the edits agents ask to make, so the person sees the size of a change before
// allowing it. Counts are of lines, after the lines both sides share at the start and the end are
// set aside: changing one line inside a five-line `old_string` is +1 −1, not +5 −5.

export interface FileDiff {
  path: string;
  added: number;
  /** Undefined when it cannot be known from the input (a whole file written over). */
  removed?: number;
  /** "add" | "update" | "delete" | "write", when the tool says. */
  op?: string;
  /** Where an apply_patch "Move to" sends the file. */
  movedTo?: string;
}

function lines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  // A trailing newline ends the last line; it does not start another.
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** Lines added and removed going from `before` to `after`, after trimming the shared ends. */
export function lineChange(before: string, after: string): { added: number; removed: number } {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { added: endB - start, removed: endA - start };
}

export function countLines(text: string): number {
  return lines(text).length;
}

/**
 * The files a Codex `apply_patch` envelope touches: `*** Begin Patch`, then per file `*** Add File:`,
 * `*** Update File:` (optionally `*** Move to:`) or `*** Delete File:`, hunks of ` `/`+`/`-` lines,
 * `*** End Patch`. Returns undefined when the text is not such a patch.
 */
export function applyPatchFiles(patch: string): FileDiff[] | undefined {
  if (!patch.trimStart().startsWith("*** Begin Patch")) return undefined;
  const files: FileDiff[] = [];
  let current: FileDiff | undefined;
  for (const line of patch.split("\n")) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      const op = header[1].toLowerCase();
      // A deleted file lists no lines: how many it loses is not in the patch.
      current = { path: header[2].trim(), added: 0, removed: op === "delete" ? undefined : 0, op };
      files.push(current);
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && current) {
      current.movedTo = move[1].trim();
      continue;
    }
    if (!current || line.startsWith("***") || line.startsWith("@@")) continue;
    if (line.startsWith("+")) current.added++;
    else if (line.startsWith("-")) current.removed = (current.removed ?? 0) + 1;
  }
  return files;
}
