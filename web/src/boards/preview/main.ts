/** The boards' preview page: one fixture (chosen by ?f=name&lang=xx) drawn by its board. */
import { mount } from "svelte";
import Preview from "./Preview.svelte";

mount(Preview, { target: document.getElementById("app")! });
