// A unified-style diff of one edit, for `--dry-run` and the Agents view: the changed lines with
// three lines of context. Our edits touch one region of a file, so one hunk is enough.
export function lineDiff(before: string, after: string, file: string, context = 3): string {
  if (before === after) return "";
  const a = before === "" ? [] : before.replace(/\r?\n$/, "").split(/\r?\n/);
  const b = after === "" ? [] : after.replace(/\r?\n$/, "").split(/\r?\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - context);
  const aEnd = Math.min(a.length, a.length - tail + context);
  const bEnd = Math.min(b.length, b.length - tail + context);
  const range = (start: number, count: number) => (count === 0 ? `${start},0` : `${start + 1},${count}`);
  const lines = [`--- ${before === "" ? "/dev/null" : file}`, `+++ ${file}`, `@@ -${range(from, aEnd - from)} +${range(from, bEnd - from)} @@`];
  for (let i = from; i < head; i++) lines.push(` ${a[i]}`);
  for (let i = head; i < a.length - tail; i++) lines.push(`-${a[i]}`);
  for (let i = head; i < b.length - tail; i++) lines.push(`+${b[i]}`);
  for (let i = a.length - tail; i < aEnd; i++) lines.push(` ${a[i]}`);
  return lines.join("\n") + "\n";
}
