import { backendContract } from "../contract/backend.contract.js";
import { connect, TITLES } from "./helpers.js";

backendContract("atspi on the Swing fixture", async () => {
  const backend = await connect();
  return {
    backend,
    title: TITLES.swing,
    buttonName: "Open dialog",
    textFieldName: "Name",
    teardown: () => backend.close(),
  };
});

backendContract("atspi on gtk4-widget-factory", async () => {
  const backend = await connect();
  return {
    backend,
    title: TITLES.gtk4,
    buttonName: "togglebutton",
    // GTK 4 names an unnamed entry "GtkEntry", its type: deskhand reads it as unnamed.
    textFieldName: "",
    teardown: () => backend.close(),
  };
});
