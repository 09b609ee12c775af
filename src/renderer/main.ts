import { mount } from "svelte";
import App from "./App.svelte";
import { connect } from "./lib/api";
import "./styles.css";

mount(App, { target: document.getElementById("app")!, props: { connection: connect() } });
