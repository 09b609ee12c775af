// Sandboxed preload (bundled to CommonJS): exposes the typed contract as `window.companion`.
import { contextBridge, ipcRenderer } from "electron";
import { createCompanionApi } from "./api";

contextBridge.exposeInMainWorld("companion", createCompanionApi(ipcRenderer));
