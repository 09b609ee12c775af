import { mount } from "svelte";
import App from "./App.svelte";
import Device from "./Device.svelte";
import { connect } from "./lib/api";
import { isDeviceMode } from "./lib/device";
import "./styles.css";
import "./device.css";

const target = document.getElementById("app")!;
// The device listener serves the same files; there the page pairs first and shows Inbox and History.
if (isDeviceMode()) mount(Device, { target });
else mount(App, { target, props: { connection: connect() } });
