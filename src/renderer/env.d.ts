// Lets plain tsc (npm run typecheck) see .svelte imports and Svelte's runes in .svelte.ts files.
/// <reference types="svelte" />
/// <reference types="vite/client" />

declare module "*.svelte" {
  import type { Component } from "svelte";
  const component: Component<any>;
  export default component;
}
