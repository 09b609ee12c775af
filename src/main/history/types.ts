// History's shapes live in src/shared/history.ts (the History view uses them too); main re-exports
// them so its modules import from one place.
export * from "../../shared/history";
