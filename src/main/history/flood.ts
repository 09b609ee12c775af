// A flood of refusals is counted, not written row by row: the first few per asker per minute
// are recorded whole, then one row per asker per minute counts the rest ("refused 480 times"),
// and past a cap over all askers (names are the caller's choice) one row counts everyone's.
// Questions withdrawn before the person could see them are counted the same way (recorder.ts).
import type { PendingEntry, Request } from "../../shared/types";
import { sourceKey } from "../inbox";
import { HISTORY_REFUSED_ROWS_PER_MINUTE, HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE } from "../../shared/limits";
import { questionRecord } from "./records";
import type { HistoryStore, Settlement } from "./store";
import type { WriteQueue } from "./write-queue";

export interface FloodOptions {
  /** Refusals recorded one by one per asker per minute (HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE). */
  refusedRowsPerSource?: number;
  /** Rows of refusals per minute over all askers (HISTORY_REFUSED_ROWS_PER_MINUTE). */
  refusedRowsPerMinute?: number;
}

/**
 * Whether a question that was never shown gets a row of its own this minute (true), or is
 * counted into its asker's count row (or everyone's, past the minute's rows) of that outcome.
 */
export type KeepWhole = (source: PendingEntry["source"], request: Request, outcome: Settlement["outcome"], reason: string, at: number) => boolean;

/** Refusals are counted per asker per minute of the clock. */
const MINUTE_MS = 60_000;
/** The count row of the minute's refusals past the all-askers cap. */
const EVERYONE = "\u0000everyone";

/** One asker's questions this minute that got a row of their own. */
interface Tally {
  rows: number;
}

export function createFloodCounter(store: HistoryStore, writes: WriteQueue, options: FloodOptions = {}): KeepWhole {
  const perSource = options.refusedRowsPerSource ?? HISTORY_REFUSED_ROWS_PER_SOURCE_PER_MINUTE;
  const perMinute = options.refusedRowsPerMinute ?? HISTORY_REFUSED_ROWS_PER_MINUTE;
  let minute = -1;
  let rowsThisMinute = 0;
  const tallies = new Map<string, Tally>();
  const counts = new Map<string, { rowId?: number }>();
  return (source, request, outcome, reason, at) => {
    const thisMinute = Math.floor(at / MINUTE_MS);
    if (thisMinute !== minute) {
      minute = thisMinute;
      rowsThisMinute = 0;
      tallies.clear();
      counts.clear();
    }
    const key = sourceKey(source);
    let tally = tallies.get(key);
    if (!tally && rowsThisMinute < perMinute) tallies.set(key, (tally = { rows: 0 }));
    if (tally && tally.rows < perSource) {
      tally.rows++;
      rowsThisMinute++;
      writes.touch(source);
      return true;
    }
    // Counted: into this asker's count row, or everyone's once the minute's rows are used up.
    let countKey = tally ? key : EVERYONE;
    if (countKey !== EVERYONE && !counts.has(`${key}\n${outcome}`) && rowsThisMinute >= perMinute) countKey = EVERYONE;
    const holder = counts.get(`${countKey}\n${outcome}`);
    if (holder) {
      writes.enqueue("counted again", () => {
        if (holder.rowId !== undefined) store.repeat(holder.rowId, at);
      });
      return false;
    }
    const made: { rowId?: number } = {};
    counts.set(`${countKey}\n${outcome}`, made);
    rowsThisMinute++;
    const who = countKey === EVERYONE ? "several askers" : (source.server ?? source.agent ?? "agent");
    const verb = outcome === "refused" ? "refused" : outcome === "expired" ? "expired before they were answered" : "withdrawn before they were answered";
    const question = questionRecord({ ...request, prompt: `More questions ${verb} from ${who} within this minute` }, countKey === EVERYONE ? {} : source, at);
    writes.enqueue("counted", () => {
      made.rowId = store.insert({ ...question, fields: [], outcome, by: "companion", reason, settledAt: at });
    });
    return false;
  };
}
